import { SensitiveValue, UNKNOWN } from '../index';
import { problemOf, run } from '../testing';
import { graphemes } from './strings';

describe('string functions', () => {
  it.each([
    ['lower("ÀBC")', 'àbc'],
    ['upper("straße")', 'STRAßE'],
    ['title("hello o\'neil-x")', "Hello O'Neil-X"],
    ['trimspace(" \\n x \\t")', 'x'],
    ['trim("--x--", "-")', 'x'],
    ['trimprefix("abc", "ab")', 'c'],
    ['trimsuffix("abc", "bc")', 'a'],
    ['chomp("x\\r\\n\\n")', 'x'],
    ['strrev("ab🌍")', '🌍ba'],
    ['substr("hello", 1, 3)', 'ell'],
    ['substr("hello", -2, -1)', 'lo'],
    ['substr("abc", 9, 1)', ''],
    ['replace("a.b.c", ".", "-")', 'a-b-c'],
    ['replace("a1b22", "/[0-9]+/", "#")', 'a#b#'],
    ['replace("ab", "/(a)(b)/", "$2$1")', 'ba'],
    ['replace("ab", "/(?P<x>a)/", "$${x}$${x}")', 'aab'],
    ['replace("ab", "", "-")', '-a-b-'],
    ['join("-", ["a", "b"], ["c"])', 'a-b-c'],
    ['upper(1)', '1'],
    ['indent(2, "a\\nb")', 'a\n  b'],
  ])('%s is %j', (source, expected) => {
    expect(run(source)).toBe(expected);
  });

  it.each([
    ['indent(1e9, "x\\ny")', 'indent'],
    ['indent(300000000, "x\\ny\\nz")', 'indent'],
    ['format("%1000000000d", 1)', 'format'],
    ['formatlist("%1000000000d", [1])', 'formatlist'],
  ])('%s, too long to build, fails as a call', (source, construct) => {
    const problem = problemOf(source);
    expect(problem).toMatchObject({ code: 'invalid_argument', construct });
    expect(problem.message).toMatch(new RegExp(`^Call to function "${construct}" failed: .*(longer|larger) than`));
  });

  it('splits and tests prefixes', () => {
    expect(run('split(",", "a,,b")')).toEqual(['a', '', 'b']);
    expect(run('split("", "a🌍")')).toEqual(['a', '🌍']);
    expect(run('startswith("abc", "ab")')).toBe(true);
    expect(run('endswith("abc", "ab")')).toBe(false);
    expect(run('strcontains("abc", "b")')).toBe(true);
  });

  it('counts user-perceived characters', () => {
    expect(run('length("e\\u0301🌍")')).toBe(2);
  });

  it('gives unknown and sensitive results from unknown and sensitive text', () => {
    expect(run('upper(x)', { x: UNKNOWN })).toBe(UNKNOWN);
    expect(run('join(",", ["a", x])', { x: UNKNOWN })).toBe(UNKNOWN);
    expect(run('lower(x)', { x: new SensitiveValue('A') })).toEqual(new SensitiveValue('a'));
  });

  it('refuses what Terraform refuses', () => {
    expect(problemOf('upper(null)')).toMatchObject({ code: 'invalid_argument', construct: 'upper' });
    expect(problemOf('upper([])')).toMatchObject({ code: 'invalid_argument' });
    expect(problemOf('join(",", ["a", null])')).toMatchObject({ code: 'invalid_argument', construct: 'join' });
    expect(problemOf('join(",")')).toMatchObject({ code: 'invalid_argument' });
    expect(problemOf('replace("a", "/(/", "b")')).toMatchObject({ code: 'invalid_argument', construct: 'replace' });
  });
});

describe('graphemes of long strings', () => {
  const whole = (s: string) => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s), (g) => g.segment);
  const clusters = ['x', 'é', 'e\u0301', '🇫🇷', '🇩🇪', '👨‍👩‍👧', '\r\n', '\r', '\n', '👍🏽', 'क्ष', '\ud83c', 'a\u0301\u0301\u0301', ' '];

  it('splits as the segmenter does over the whole string, wherever its windows fall', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    for (let run = 0; run < 200; run++) {
      const s = Array.from({ length: next() % 700 }, () => clusters[next() % clusters.length]).join('');
      expect(graphemes(s)).toEqual(whole(s));
    }
    const longCluster = `a${'\u0301'.repeat(1000)}b`;
    expect(graphemes(longCluster)).toEqual(whole(longCluster));
  });

  it('takes a literal of megabytes in linear work', () => {
    // The segmenter alone would take hours here: each of its steps reads the whole string.
    const text = `${'x'.repeat(3_000_000)}${'é🌍 '.repeat(100_000)}`;
    const split = graphemes(text);
    expect(split.length).toBe(3_300_000);
    expect(split.slice(-3)).toEqual(['é', '🌍', ' ']);
  });
});
