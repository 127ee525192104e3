import { resourceKind } from './registry';
import { validateConfig } from './validate';

const UUID = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
const check = (type: string, config: Record<string, unknown>) => validateConfig(resourceKind(type)!, config, `${type}.x`);
const byPath = (problems: ReturnType<typeof check>) => Object.fromEntries(problems.map((p) => [p.path!.join('.'), p.detail]));

describe("validation problems in tenantform's words", () => {
  it('names a misspelled key with the argument it likely meant, and does not also call that argument missing', () => {
    const problems = byPath(
      check('tenantform_user_roles', {
        user_id: UUID,
        roles: [
          { tenant_id: UUID, role: 'company_admin' },
          { tenant_id: UUID, role_id: 'company_admn' },
        ],
      }),
    );
    expect(Object.keys(problems).sort()).toEqual(['roles.0.role', 'roles.1.role_id']);
    expect(problems['roles.0.role']).toMatch(/^"role" is not an argument of this object\. Did you mean "role_id"\?/);
    expect(problems['roles.1.role_id']).toMatch(/^Not one of the accepted values\. Did you mean "company_admin"\? Expected one of partner_admin, /);
  });

  it('reports every bad element at once, each at its own path', () => {
    const problems = byPath(
      check('tenantform_offering_items', {
        tenant_id: UUID,
        application_id: UUID,
        items: [
          { name: 'workstations', quota: { valeu: 5 } },
          { name: 'servers', quota: { value: 'x' } },
        ],
      }),
    );
    expect(Object.keys(problems).sort()).toEqual(['items.0.quota.valeu', 'items.1.quota.value']);
    expect(problems['items.0.quota.valeu']).toContain('Did you mean "value"?');
  });

  it("never carries the validation library's own text", () => {
    const problems = check('tenantform_tenant', { parent_id: 'not-a-uuid', name: 'T', kind: 'custmer' });
    const details = problems.map((p) => p.detail).join('\n');
    expect(details).not.toMatch(/Invalid (option|input|string)|expected one of "/);
    expect(byPath(problems)).toEqual({
      parent_id: 'Not in the expected format. Expected a lowercase uuid (8-4-4-4-12 hexadecimal); found "not-a-uuid".',
      kind: 'Not one of the accepted values. Did you mean "customer"? Expected one of partner, folder, customer, unit; found "custmer".',
    });
  });

  it('keeps the message a rule declares for itself', () => {
    const problems = byPath(check('tenantform_event_subscription', { auto_commit_interval: 'five minutes' }));
    expect(problems.auto_commit_interval).toMatch(/^Not an ISO 8601 duration\. Expected an ISO 8601 duration such as/);
  });
});
