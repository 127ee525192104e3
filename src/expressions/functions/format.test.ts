import { problemOf, run } from '../testing';

describe('format and formatlist', () => {
  it.each([
    ['format("%s=%d", "n", 3)', 'n=3'],
    ['format("%5.1f|%-4s|%04d", 2.25, "ab", 7)', '  2.2|ab  |0007'],
    ['format("%+d % d", 5, 5)', '+5  5'],
    ['format("%x %X %o %b", 255, 255, 8, 5)', 'ff FF 10 101'],
    ['format("%e", 1500)', '1.500000e+03'],
    ['format("%q", "a\\"b")', '"a\\"b"'],
    ['format("%t", "true")', 'true'],
    ['format("%v|%v|%#v", 1.5, [1, "a"], "s")', '1.5|[1,"a"]|"s"'],
    ['format("%[2]s%[1]s", "a", "b")', 'ba'],
    ['format("%.2s", "abc")', 'ab'],
    ['format("100%%")', '100%'],
  ])('%s is %j', (source, expected) => {
    expect(run(source)).toBe(expected);
  });

  it('formats each element of the list arguments', () => {
    expect(run('formatlist("%s=%s", ["a", "b"], "x")')).toEqual(['a=x', 'b=x']);
    expect(problemOf('formatlist("%s%s", ["a"], ["b", "c"])')).toMatchObject({ code: 'invalid_argument', construct: 'formatlist' });
  });

  it('fails on a missing argument, a wrong type or an unknown verb', () => {
    expect(problemOf('format("%s %s", "a")')).toMatchObject({ code: 'invalid_argument', construct: 'format' });
    expect(problemOf('format("%d", 1.5)')).toMatchObject({ code: 'invalid_argument' });
    expect(problemOf('format("%d", "x")')).toMatchObject({ code: 'invalid_argument' });
    expect(problemOf('format("%y", 1)')).toMatchObject({ code: 'invalid_argument' });
  });

  it('refuses a width or precision larger than Go takes, instead of filling it', () => {
    expect(problemOf('format("%999999999d", 1)')).toMatchObject({ code: 'invalid_argument', construct: 'format' });
    expect(problemOf('format("%.999999999f", 1)')).toMatchObject({ code: 'invalid_argument', construct: 'format' });
    expect(run('format("%5d|%.2f", 1, 2.5)')).toBe('    1|2.50');
  });
});
