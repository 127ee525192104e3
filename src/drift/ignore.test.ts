import { IgnoreRules } from './ignore';

describe('.tenantformignore', () => {
  const rules = IgnoreRules.parse(
    ['# a comment', 'tenantform_usage_report', 'tenantform_tenant_setting.*/retention_days', 'tenantform_infra_component.abc.name', 'tenantform_x.a\\.b'].join(
      '\n',
    ),
  );

  it('ignores every unmanaged object of a type, or objects by id with wildcards', () => {
    expect(rules.ignoresObject('tenantform_usage_report', 'r1', true)).toBe(true);
    expect(rules.ignoresObject('tenantform_usage_report', 'r1', false)).toBe(false);
    expect(rules.ignoresObject('tenantform_tenant_setting', 'app/tenant/retention_days', true)).toBe(true);
    expect(rules.ignoresObject('tenantform_tenant_setting', 'app/tenant/backup_window', true)).toBe(false);
    expect(rules.ignoresObject('tenantform_x', 'a.b', true)).toBe(true);
    expect(rules.ignoresObject('tenantform_infra_component', 'abc', true)).toBe(false);
  });

  it('ignores changes of one attribute of one object', () => {
    expect(rules.ignoresAttribute('tenantform_infra_component', 'abc', 'name')).toBe(true);
    expect(rules.ignoresAttribute('tenantform_infra_component', 'abc', 'url')).toBe(false);
    expect(rules.ignoresAttribute('tenantform_infra_component', 'other', 'name')).toBe(false);
  });
});
