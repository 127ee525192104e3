import { toPlain } from '../index';
import { problemOf, run } from '../testing';

describe('regular expression functions', () => {
  it('returns the match, the groups as a list, or named groups as an object', () => {
    expect(run('regex("[a-z]+", "12abc3")')).toBe('abc');
    expect(run('regex("(\\\\d+)-(\\\\d+)", "1-2")')).toEqual(['1', '2']);
    expect(toPlain(run('regex("(?P<k>\\\\w+)=(?P<v>\\\\w+)", "a=b")'))).toEqual({ k: 'a', v: 'b' });
  });

  it('reads Go flag groups and gives null for groups that did not take part', () => {
    expect(run('regex("(?i)abc", "xABC")')).toBe('ABC');
    expect(run('regexall("(a)(b)?", "a")')).toEqual([['a', null]]);
    expect(run('regexall("\\\\d", "a1b2")')).toEqual(['1', '2']);
  });

  it('matches in linear time, as RE2 does: a pattern that backtracks without end elsewhere answers at once', () => {
    // With a backtracking engine this takes about 2^40 steps.
    expect(problemOf(`regex("(a+)+$", "${'a'.repeat(40)}b")`)).toMatchObject({ code: 'invalid_argument', construct: 'regex' });
    expect(run(`regexall("(a|aa)+c", "${'a'.repeat(40)}c")`)).toHaveLength(1);
    expect(run(`replace("${'a'.repeat(40)}b", "/(a+)+$/", "x")`)).toBe(`${'a'.repeat(40)}b`);
  });

  it('fails when nothing matches or the pattern is invalid', () => {
    expect(problemOf('regex("x", "abc")')).toMatchObject({ code: 'invalid_argument', construct: 'regex' });
    expect(problemOf('regex("[", "abc")')).toMatchObject({ code: 'invalid_argument', construct: 'regex' });
  });
});
