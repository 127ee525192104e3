import { SetValue, toPlain, UNKNOWN } from '../index';
import { problemOf, run } from '../testing';

const roots = { local: { m: { b: 2, a: 1 }, l: ['x', 'y', 'z'], unknown: UNKNOWN, partial: ['a', UNKNOWN] } };

describe('collection functions', () => {
  it.each([
    ['length(local.l)', 3],
    ['length(local.m)', 2],
    ['length(toset(["a", "a"]))', 1],
    ['lookup(local.m, "a", 0)', 1],
    ['lookup(local.m, "c", 0)', 0],
    ['element(local.l, 4)', 'y'],
    ['index(local.l, "z")', 2],
    ['contains(local.l, "y")', true],
    ['contains(toset(["a"]), "b")', false],
    ['one([])', null],
    ['one(["a"])', 'a'],
    ['alltrue([true, "true"])', true],
    ['anytrue([])', false],
    ['sum([1, "2", 3.5])', 6.5],
  ])('%s is %j', (source, expected) => {
    expect(run(source, roots)).toBe(expected);
  });

  it.each([
    ['keys(local.m)', ['a', 'b']],
    ['values(local.m)', [1, 2]],
    ['merge(local.m, {b = 3, c = 4}, null)', { a: 1, b: 3, c: 4 }],
    ['concat(local.l, [1], [])', ['x', 'y', 'z', 1]],
    ['flatten([["a", ["b"]], [], "c"])', ['a', 'b', 'c']],
    ['distinct(["b", "a", "b"])', ['b', 'a']],
    ['coalesce(null, "", "x")', 'x'],
    ['coalescelist([], ["a"])', ['a']],
    ['compact(["a", "", null])', ['a']],
    ['reverse([1, 2])', [2, 1]],
    ['slice(local.l, 1, 2)', ['y']],
    ['sort(["b", "B", "10", "9"])', ['10', '9', 'B', 'b']],
    ['zipmap(["a", "b"], [1, 2])', { a: 1, b: 2 }],
    ['range(3)', [0, 1, 2]],
    ['range(-2)', [0, -1]],
    ['range(1, 2, 0.5)', [1, 1.5]],
    ['setunion(["b"], ["a", "b"])', ['a', 'b']],
    ['chunklist([1, 2, 3], 2)', [[1, 2], [3]]],
    ['transpose({a = ["x"], b = ["x", "y"]})', { x: ['a', 'b'], y: ['b'] }],
    ['matchkeys(["i1", "i2"], ["us", "eu"], ["eu"])', ['i2']],
    ['setintersection(["a", "b"], ["b"])', ['b']],
    ['setsubtract(["a", "b"], ["b"])', ['a']],
  ])('%s is %j', (source, expected) => {
    expect(toPlain(run(source, roots))).toEqual(expected);
  });

  it('makes sets where Terraform does', () => {
    expect(run('setunion(["b"], ["a"])')).toBeInstanceOf(SetValue);
  });

  it('keeps unknown elements where the function only rearranges', () => {
    expect(run('length(local.partial)', roots)).toBe(2);
    expect(run('concat(local.partial, ["b"])', roots)).toEqual(['a', UNKNOWN, 'b']);
    expect(run('element(local.partial, 0)', roots)).toBe('a');
    expect(run('flatten([local.partial])', roots)).toBe(UNKNOWN);
    expect(run('contains(local.partial, "a")', roots)).toBe(UNKNOWN);
    expect(run('length(local.unknown)', roots)).toBe(UNKNOWN);
    expect(run('zipmap(local.partial, [1, 2])', roots)).toBe(UNKNOWN);
  });

  it('refuses what Terraform refuses', () => {
    for (const source of [
      'length(1)',
      'lookup(local.m, "c")',
      'element([], 0)',
      'element(local.l, -1)',
      'index(local.l, "q")',
      'keys([1])',
      'merge(1)',
      'concat(toset([1]))',
      'concat()',
      'coalesce(null, "")',
      'coalescelist([], [])',
      'slice(local.l, 2, 1)',
      'sort([null])',
      'zipmap(["a"], [])',
      'range(0, 1, 0)',
      'range(1, 0, 1)',
      'one([1, 2])',
      'alltrue([1])',
      'sum([])',
    ])
      expect([source, problemOf(source, roots).code]).toEqual([source, 'invalid_argument']);
  });
});
