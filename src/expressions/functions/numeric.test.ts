import { UNKNOWN } from '../index';
import { problemOf, run } from '../testing';

describe('numeric functions', () => {
  it.each([
    ['abs(-2)', 2],
    ['ceil(1.1)', 2],
    ['floor(-1.1)', -2],
    ['signum(-3)', -1],
    ['pow(3, 2)', 9],
    ['log(8, 2)', 3],
    ['max(1, "7", 3)', 7],
    ['min(4, 2.5)', 2.5],
    ['parseint("ff", 16)', 255],
    ['parseint("-z", 36)', -35],
  ])('%s is %j', (source, expected) => {
    expect(run(source)).toBe(expected);
  });

  it('turns the -0 of rounding into 0', () => {
    expect(Object.is(run('ceil(-0.5)'), 0)).toBe(true);
  });

  it('fails on bad input and stays unknown on unknown input', () => {
    expect(problemOf('max()')).toMatchObject({ code: 'invalid_argument', construct: 'max' });
    expect(problemOf('abs("x")')).toMatchObject({ code: 'invalid_argument', construct: 'abs' });
    expect(problemOf('parseint("12", 1)')).toMatchObject({ code: 'invalid_argument', construct: 'parseint' });
    expect(problemOf('parseint("9", 8)')).toMatchObject({ code: 'invalid_argument' });
    expect(run('abs(x)', { x: UNKNOWN })).toBe(UNKNOWN);
  });
});
