import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

describe('the ignore file as docs/drift.md documents it', () => {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'drift.md'), 'utf8');
  const example = /```text\n(# \.tenantformignore\n[\s\S]*?)```/.exec(doc)?.[1];
  const rules = IgnoreRules.parse(example ?? '');
  const setting = (name: string) => `0c1d2e3f-0000-4000-8000-000000000001/0c1d2e3f-0000-4000-8000-000000000002/${name}`;

  it('has its example', () => {
    expect(example).toBeDefined();
  });

  it('takes comments, globs, whole types, objects, attributes and escaped dots as documented', () => {
    // Comment lines are no patterns: a type named like one is not left out.
    expect(rules.ignoresObject('# The support team sets retention by hand in every customer', 'x', true)).toBe(false);
    expect(rules.ignoresObject('tenantform_tenant_setting', setting('retention_days'), true)).toBe(true);
    expect(rules.ignoresObject('tenantform_tenant_setting', setting('backup_window'), true)).toBe(false);
    expect(rules.ignoresObject('tenantform_user', 'any-user', true)).toBe(true);
    expect(rules.ignoresObject('tenantform_user', 'any-user', false)).toBe(false);
    const tenant = '6f1f2c1e-3b1c-4d7e-9a51-0c6ad8e2a9b4';
    expect(rules.ignoresObject('tenantform_tenant', tenant, false)).toBe(true);
    expect(rules.ignoresObject('tenantform_tenant', tenant, true)).toBe(true);
    const component = '8d2e6a0b-5c4f-4a8e-b1d3-2f7e9c0a6b15';
    expect(rules.ignoresAttribute('tenantform_infra_component', component, 'name')).toBe(true);
    expect(rules.ignoresAttribute('tenantform_infra_component', component, 'url')).toBe(false);
    expect(rules.ignoresObject('tenantform_infra_component', component, false)).toBe(false);
    expect(rules.ignoresObject('tenantform_tenant_setting', setting('backup.schedule'), true)).toBe(true);
    // The escaped dot is a dot, not a separator nor any character.
    expect(rules.ignoresObject('tenantform_tenant_setting', setting('backupXschedule'), true)).toBe(false);
  });

  it('takes a # later in a line as part of the pattern, and has no negation', () => {
    const more = IgnoreRules.parse('tenantform_user # not a comment\n!tenantform_usage_report\n');
    expect(more.ignoresObject('tenantform_user', 'u', true)).toBe(false);
    expect(more.ignoresObject('tenantform_usage_report', 'r', true)).toBe(false);
  });
});
