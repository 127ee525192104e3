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

  it('fails when nothing matches or the pattern is invalid', () => {
    expect(problemOf('regex("x", "abc")')).toMatchObject({ code: 'invalid_argument', construct: 'regex' });
    expect(problemOf('regex("[", "abc")')).toMatchObject({ code: 'invalid_argument', construct: 'regex' });
  });
});
