import { SensitiveValue, UNKNOWN } from '../index';
import { problemOf, run } from '../testing';

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
