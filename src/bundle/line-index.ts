/**
 * A source map read one generated line at a time. The `mappings` of a source map are relative:
 * each segment's source, line and column are deltas from the segment before, across lines, so
 * finding one position decodes everything before it. The build decodes the whole map once and
 * keeps, for each generated line, where its segments start in `mappings` and the state they
 * start from (the line index); a stack frame then decodes one line only. Node's own
 * `module.SourceMap` decodes a map of the bundle's size in about half a second, which every
 * start of the executable that formats a stack (yargs does, at each command) would pay.
 */

/** Where a generated line's segments start in `mappings`, and the source, line and column their deltas start from. */
export type LineStart = readonly [offset: number, source: number, line: number, column: number];

/** A source map as the build writes it beside a bundle, but for its `mappings`: the sources and the line index. */
export interface LineIndex {
  /** The sources, named from the root of a checkout of tenantform (`src/cli/main.ts`). */
  readonly sources: readonly string[];
  readonly starts: readonly LineStart[];
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

/**
 * Decodes the segments of the generated line that starts at `start`, calling `visit` with each
 * segment that names a source (its generated column and original position); returns the start
 * of the next line.
 */
function decodeLine(mappings: string, start: LineStart, visit?: (generatedColumn: number, at: OriginalPosition) => void): LineStart {
  let [i, source, line, column] = start;
  let generated = 0;
  const value = [0, 0, 0, 0, 0];
  while (i < mappings.length) {
    const c = mappings.charCodeAt(i);
    if (c === SEMICOLON) return [i + 1, source, line, column];
    if (c === COMMA) {
      i++;
      continue;
    }
    let fields = 0;
    while (i < mappings.length && mappings.charCodeAt(i) !== COMMA && mappings.charCodeAt(i) !== SEMICOLON) {
      let shift = 0;
      let vlq = 0;
      let digit: number;
      do {
        digit = DIGITS[mappings.charCodeAt(i++)];
        if (digit < 0) throw new Error(`Not a source map's mappings: a character other than base64 at ${i - 1}`);
        vlq += (digit & 31) << shift;
        shift += 5;
      } while (digit & 32);
      if (fields < value.length) value[fields] = vlq & 1 ? -(vlq >>> 1) : vlq >>> 1;
      fields++;
    }
    generated += value[0];
    if (fields >= 4) {
      source += value[1];
      line += value[2];
      column += value[3];
      visit?.(generated, { source, line, column });
    }
  }
  return [i, source, line, column];
}

/** The start of every generated line of `mappings`. */
export function indexLines(mappings: string): LineStart[] {
  const starts: LineStart[] = [];
  for (let start: LineStart = [0, 0, 0, 0]; start[0] < mappings.length; start = decodeLine(mappings, start)) starts.push(start);
  return starts;
}

/** A generated line's segments that name a source: their generated columns, in order, and their original positions. */
export type DecodedLine = { readonly columns: number[]; readonly positions: OriginalPosition[] };

/**
 * The original position of a generated one (line and column counted from 0), if the map has one
 * on that line. With `decoded`, each line is decoded once: a bundle's lines are long (its
 * whitespace is minified), and the same frames come back in trace after trace.
 */
export function originalPosition(
  mappings: string,
  starts: readonly LineStart[],
  line: number,
  column: number,
  decoded?: Map<number, DecodedLine>,
): OriginalPosition | undefined {
  const start = starts[line];
  if (start === undefined) return undefined;
  let segments = decoded?.get(line);
  if (segments === undefined) {
    const found: DecodedLine = { columns: [], positions: [] };
    decodeLine(mappings, start, (generated, at) => {
      found.columns.push(generated);
      found.positions.push(at);
    });
    segments = found;
    decoded?.set(line, segments);
  }
  // The last segment at or before the column (generated columns only grow along a line).
  let [low, high] = [0, segments.columns.length - 1];
  let best = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (segments.columns[mid] <= column) [best, low] = [mid, mid + 1];
    else high = mid - 1;
  }
  return best < 0 ? undefined : segments.positions[best];
}
