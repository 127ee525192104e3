import { SetValue } from '../expressions';
import { convertTo, parseTypeConstraint, takesRawText } from './variable-types';

describe('variable type constraints', () => {
  it('parses what cdktf writes', () => {
    expect(parseTypeConstraint('list(string)')).toEqual({ kind: 'list', element: { kind: 'string' } });
    expect(parseTypeConstraint('${map(number)}')).toEqual({ kind: 'map', element: { kind: 'number' } });
    const object = parseTypeConstraint('object({ name = string, size = optional(number) })');
    expect(object).toMatchObject({ kind: 'object' });
    expect(parseTypeConstraint('tuple([string, bool])')).toEqual({ kind: 'tuple', elements: [{ kind: 'string' }, { kind: 'bool' }] });
    expect(parseTypeConstraint('list(strin)')).toEqual({ problem: expect.stringContaining('unknown type "strin"') });
  });

  it('converts given values as Terraform does', () => {
    const t = (text: string) => parseTypeConstraint(text) as Exclude<ReturnType<typeof parseTypeConstraint>, { problem: string }>;
    expect(convertTo(t('number'), '5')).toEqual({ value: 5 });
    expect(convertTo(t('bool'), 'true')).toEqual({ value: true });
    expect(convertTo(t('string'), 7)).toEqual({ value: '7' });
    expect(convertTo(t('set(string)'), ['b', 'a', 'b'])).toEqual({ value: new SetValue(['a', 'b']) });
    expect(convertTo(t('object({ name = string, size = optional(number) })'), { name: 'x' })).toEqual({ value: { name: 'x', size: null } });
    expect(convertTo(t('object({ name = string })'), {})).toEqual({ problem: 'attribute "name" is required' });
    expect(convertTo(t('list(number)'), ['1', 'x'])).toEqual({ problem: 'a number is required at [1]' });
    expect(takesRawText(t('string'))).toBe(true);
    expect(takesRawText(t('list(string)'))).toBe(false);
  });
});
