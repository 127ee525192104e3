import { contextOf, evaluateTemplate, SensitiveValue, SetValue, UNKNOWN, type Value } from '../expressions';
import { expressionText } from './expression-text';

const roundTrip = (value: Value): unknown => {
  const text = expressionText(value);
  if (text === undefined) return undefined;
  const r = evaluateTemplate(`\${${text}}`, contextOf({}));
  return 'value' in r ? r.value : r.problem;
};

describe('a value written as an expression', () => {
  it('evaluates back to the value, interpolation marks and all', () => {
    const value: Value = { name: 'Acme ${not} %{nor}', 'odd key ${x}': [1, 2.5, true, null], nested: { deep: ['a'] } };
    expect(roundTrip(value)).toEqual(value);
    expect(roundTrip(new SetValue(['a', 'b']))).toEqual(new SetValue(['a', 'b']));
    expect(roundTrip(new SensitiveValue('secret'))).toEqual(new SensitiveValue('secret'));
  });

  it('is undefined while any part is unknown', () => {
    expect(expressionText({ a: [1, UNKNOWN] })).toBeUndefined();
    expect(expressionText(UNKNOWN)).toBeUndefined();
  });
});
