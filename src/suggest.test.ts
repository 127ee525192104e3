import { closestName } from './suggest';

describe('closestName', () => {
  const attributes = ['name', 'internal_tag', 'pricing_mode', 'contact'];
  it('takes the snake_case form of a camelCase prop', () => expect(closestName('internalTag', attributes)).toBe('internal_tag'));
  it('takes a near spelling', () => expect(closestName('priceing_mode', attributes)).toBe('pricing_mode'));
  it('takes the one name that adds a suffix', () => expect(closestName('role', ['tenant_id', 'role_id'])).toBe('role_id'));
  it('suggests nothing far off', () => expect(closestName('quota', attributes)).toBeUndefined());
});
