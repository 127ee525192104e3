import { indexLines, originalPosition, type OriginalPosition } from './line-index';

// Two generated lines: the first with segments at columns 0, 4 and 10 (source 0, lines 0, 0 and 1),
// the second with one at column 2 (source 1, line 5, column 3). Each field is a delta, across lines.
const MAPPINGS = 'AAAA,IAAI,MACJ;ECIG';

/** Every segment of `mappings` decoded from its start, as a reference: by line, the sourced ones with their columns. */
function decodeAll(mappings: string): Array<Array<{ generated: number; at: OriginalPosition }>> {
  const VLQ = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const state = { source: 0, line: 0, column: 0 };
  return mappings.split(';').map((text) => {
    let generated = 0;
    return text
      .split(',')
      .filter((segment) => segment !== '')
      .flatMap((segment) => {
        const values: number[] = [];
        for (let i = 0, shift = 0, vlq = 0; i < segment.length; i++) {
          const digit = VLQ.indexOf(segment[i]);
          vlq += (digit & 31) << shift;
          shift += 5;
          if (!(digit & 32)) [values[values.length], shift, vlq] = [vlq & 1 ? -(vlq >>> 1) : vlq >>> 1, 0, 0];
        }
        generated += values[0];
        if (values.length < 4) return [];
        [state.source, state.line, state.column] = [state.source + values[1], state.line + values[2], state.column + values[3]];
        return [{ generated, at: { ...state } }];
      });
  });
}

/** A map of `lines` lines of `segments` segments each, some of them naming no source (one field). */
function longLines(lines: number, segments: number): string {
  const out: string[] = [];
  for (let l = 0; l < lines; l++) {
    const line: string[] = [];
    for (let s = 0; s < segments; s++) line.push(s % 7 === 3 ? 'C' : s % 5 === 0 ? 'EACE' : 'GAAC');
    out.push(line.join(','));
  }
  return out.join(';');
}

describe('a position looked up in a bundle map', () => {
  test('is the last segment at or before the column, on that line only', () => {
    const index = indexLines(MAPPINGS);
    expect(originalPosition(MAPPINGS, index, 0, 0)).toEqual({ source: 0, line: 0, column: 0 });
    expect(originalPosition(MAPPINGS, index, 0, 7)).toEqual({ source: 0, line: 0, column: 4 });
    expect(originalPosition(MAPPINGS, index, 0, 99)).toEqual({ source: 0, line: 1, column: 0 });
    expect(originalPosition(MAPPINGS, index, 1, 1)).toBeUndefined();
    expect(originalPosition(MAPPINGS, index, 1, 2)).toEqual({ source: 1, line: 5, column: 3 });
    expect(originalPosition(MAPPINGS, index, 2, 0)).toBeUndefined();
  });

  test.each([1, 2, 3, 128])('from checkpoints %i segments apart, is the same as decoding the map from its start, at every column', (every) => {
    const mappings = longLines(4, 300);
    const index = indexLines(mappings, every);
    expect(index.map((line) => line.length)).toEqual(Array(4).fill(1 + Math.floor(299 / every)));
    decodeAll(mappings).forEach((segments, line) => {
      const last = segments[segments.length - 1].generated;
      for (let column = 0; column <= last + 2; column++) {
        const expected = [...segments].reverse().find((s) => s.generated <= column)?.at;
        expect([line, column, originalPosition(mappings, index, line, column)]).toEqual([line, column, expected]);
      }
    });
  });
});
