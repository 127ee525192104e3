import { SensitiveValue, toPlain, UNKNOWN } from './index';
import { problemOf, run } from './testing';

describe('the common type of conditional results', () => {
  it.each([
    ['true ? 1 : "a"', '1'],
    ['false ? ["a"] : [1]', ['1']],
    ['true ? [1] : ["a", "b"]', ['1']],
    ['true ? {a = 1} : {a = "x"}', { a: '1' }],
    ['true ? {a = 1} : {b = "x"}', { a: '1' }],
    ['true ? [{a = true}] : [{a = "x"}]', [{ a: 'true' }]],
    ['true ? null : "x"', null],
    ['true ? 1 : null', 1],
  ])('%s is %j', (source, expected) => {
    expect(toPlain(run(source))).toEqual(expected);
  });

  it('leaves the result alone when the other one fails or is not known', () => {
    expect(run('true ? 1 : [][0]')).toBe(1);
    expect(run('true ? 1 : x', { x: UNKNOWN })).toBe(1);
  });

  it('keeps the mark of a sensitive result', () => {
    expect(run('true ? x : "a"', { x: new SensitiveValue(1) })).toEqual(new SensitiveValue('1'));
  });

  it('refuses results without a common type', () => {
    expect(problemOf('true ? 1 : false')).toMatchObject({ code: 'invalid_type', construct: '?:' });
    expect(problemOf('true ? [1] : {a = 1}')).toMatchObject({ code: 'invalid_type' });
  });
});
