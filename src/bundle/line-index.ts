/**
 * A source map read a few segments at a time. The `mappings` of a source map are relative: each
 * segment's generated column is a delta along its line, and its source, line and column are
 * deltas from the segment before, across lines, so finding one position decodes everything
 * before it. The build decodes the whole map once and keeps checkpoints: the decoder's state at
 * the start of each generated line and before every CHECKPOINT_EVERY-th segment of it (the line
 * index); a stack frame then decodes at most that many segments. Node's own `module.SourceMap`
 * decodes a map of the bundle's size in about half a second, and a bundle's lines are long (its
 * whitespace is minified): decoding a whole line per frame cost a plan about 15 ms of traces
 * that Node's streams and yargs format and nobody prints.
 */

/** How many segments apart the checkpoints of a line are. */
export const CHECKPOINT_EVERY = 128;

/**
 * The decoder's state before a segment: where it starts in `mappings`, the generated column of
 * the segment before it on its line (0 at a line's start), the source, line and column the
 * deltas start from, and whether a segment before it on its line names a source (1) or not (0).
 */
export type Checkpoint = readonly [offset: number, generated: number, source: number, line: number, column: number, sourced: 0 | 1];

/** A source map as the build writes it beside a bundle, but for its `mappings`: the sources and the line index. */
export interface LineIndex {
  /** The sources, named from the root of a checkout of tenantform (`src/cli/main.ts`). */
  readonly sources: readonly string[];
  /** Each generated line's checkpoints, the first at its start. */
  readonly checkpoints: ReadonlyArray<readonly Checkpoint[]>;
}

/** A position in the original sources (all counted from 0, as in the map). */
export interface OriginalPosition {
  readonly source: number;
  readonly line: number;
  readonly column: number;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGITS = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) DIGITS[BASE64.charCodeAt(i)] = i;
const COMMA = 44;
const SEMICOLON = 59;

/** Reads `mappings` segment by segment from a checkpoint, keeping the decoder's state. */
class SegmentReader {
  offset: number;
  generated: number;
  source: number;
  line: number;
  column: number;
  sourced: 0 | 1;
  /** Whether the segment last read names a source. */
  named = false;
  readonly #value = [0, 0, 0, 0, 0];

  constructor(
    private readonly mappings: string,
    from: Checkpoint,
  ) {
    [this.offset, this.generated, this.source, this.line, this.column, this.sourced] = from;
  }

  get checkpoint(): Checkpoint {
    return [this.offset, this.generated, this.source, this.line, this.column, this.sourced];
  }

  /** Reads the next segment of the line; false at the line's end (the offset then past its `;`) or the map's. */
  next(): boolean {
    const m = this.mappings;
    while (this.offset < m.length && m.charCodeAt(this.offset) === COMMA) this.offset++;
    if (this.offset >= m.length) return false;
    if (m.charCodeAt(this.offset) === SEMICOLON) {
      this.offset++;
      return false;
    }
    let fields = 0;
    while (this.offset < m.length && m.charCodeAt(this.offset) !== COMMA && m.charCodeAt(this.offset) !== SEMICOLON) {
      let shift = 0;
      let vlq = 0;
      let digit: number;
      do {
        digit = DIGITS[m.charCodeAt(this.offset++)];
        if (digit < 0) throw new Error(`Not a source map's mappings: a character other than base64 at ${this.offset - 1}`);
        vlq += (digit & 31) << shift;
        shift += 5;
      } while (digit & 32);
      if (fields < this.#value.length) this.#value[fields] = vlq & 1 ? -(vlq >>> 1) : vlq >>> 1;
      fields++;
    }
    this.generated += this.#value[0];
    this.named = fields >= 4;
    if (this.named) {
      this.source += this.#value[1];
      this.line += this.#value[2];
      this.column += this.#value[3];
      this.sourced = 1;
    }
    return true;
  }

  /** The state at the start of the next line: its generated columns count from 0 again. */
  nextLine(): Checkpoint {
    return [this.offset, 0, this.source, this.line, this.column, 0];
  }
}

/** The checkpoints of every generated line of `mappings`, `every` segments apart. */
export function indexLines(mappings: string, every = CHECKPOINT_EVERY): Checkpoint[][] {
  const lines: Checkpoint[][] = [];
  let start: Checkpoint = [0, 0, 0, 0, 0, 0];
  while (start[0] < mappings.length) {
    const reader = new SegmentReader(mappings, start);
    const line: Checkpoint[] = [start];
    for (let read = 0; ; read++) {
      const before = reader.checkpoint;
      if (!reader.next()) break;
      if (read > 0 && read % every === 0) line.push(before);
    }
    lines.push(line);
    start = reader.nextLine();
  }
  return lines;
}

/**
 * The original position of a generated one (line and column counted from 0): that of the last
 * segment at or before the column on that line that names a source, if there is one.
 */
export function originalPosition(mappings: string, index: LineIndex['checkpoints'], line: number, column: number): OriginalPosition | undefined {
  const checkpoints = index[line];
  if (checkpoints === undefined) return undefined;
  // The last checkpoint whose segment before it is at or before the column (the line's start always is).
  let [low, high, from] = [1, checkpoints.length - 1, 0];
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (checkpoints[mid][1] <= column) [from, low] = [mid, mid + 1];
    else high = mid - 1;
  }
  const reader = new SegmentReader(mappings, checkpoints[from]);
  let best: OriginalPosition | undefined = reader.sourced ? { source: reader.source, line: reader.line, column: reader.column } : undefined;
  while (reader.next() && reader.generated <= column) {
    if (reader.named) best = { source: reader.source, line: reader.line, column: reader.column };
  }
  return best;
}
