import { indexLines, originalPosition, type DecodedLine } from './line-index';

// Two generated lines: the first with segments at columns 0, 4 and 10 (source 0, lines 0, 0 and 1),
// the second with one at column 2 (source 1, line 5, column 3). Each field is a delta, across lines.
const MAPPINGS = 'AAAA,IAAI,MACJ;ECIG';

describe('a position looked up in a bundle map', () => {
  const starts = indexLines(MAPPINGS);

  test('is the last segment at or before the column, on that line only', () => {
    expect(originalPosition(MAPPINGS, starts, 0, 0)).toEqual({ source: 0, line: 0, column: 0 });
    expect(originalPosition(MAPPINGS, starts, 0, 7)).toEqual({ source: 0, line: 0, column: 4 });
    expect(originalPosition(MAPPINGS, starts, 0, 99)).toEqual({ source: 0, line: 1, column: 0 });
    expect(originalPosition(MAPPINGS, starts, 1, 1)).toBeUndefined();
    expect(originalPosition(MAPPINGS, starts, 1, 2)).toEqual({ source: 1, line: 5, column: 3 });
    expect(originalPosition(MAPPINGS, starts, 2, 0)).toBeUndefined();
  });

  test('with the decoded lines kept, each line is decoded once and every answer is the same', () => {
    const decoded = new Map<number, DecodedLine>();
    for (const [line, column] of [
      [0, 0],
      [0, 7],
      [0, 99],
      [1, 1],
      [1, 2],
      [0, 3],
    ] as const) {
      expect(originalPosition(MAPPINGS, starts, line, column, decoded)).toEqual(originalPosition(MAPPINGS, starts, line, column));
    }
    expect([...decoded.keys()]).toEqual([0, 1]);
    expect(decoded.get(0)!.columns).toEqual([0, 4, 10]);
  });
});
