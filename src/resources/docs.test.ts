import { renderDocs } from './docs';

describe('the reference pages', () => {
  const rows = renderDocs()
    .flatMap(([page, text]) => text.split('\n').map((line) => [page, line] as const))
    .filter(([, line]) => line.startsWith('| `'));

  it('say once that changing an argument replaces the object', () => {
    const repeated = rows.filter(([, line]) => (line.match(/forces replacement|Changing it replaces/g) ?? []).length > 1);
    expect(repeated).toEqual([]);
    // Each argument that forces replacement says so in its row.
    expect(rows.filter(([, line]) => line.includes('forces replacement')).length).toBeGreaterThan(10);
  });
});

describe('a resource page', () => {
  const page = (name: string) => renderDocs().find(([path]) => path === `docs/resources/${name}.md`)![1];

  it('names its identity and imports by it (Terraform 1.12)', () => {
    expect(page('tenant_setting')).toContain('| `application_id` | string | `application_id` |');
    expect(page('user')).toMatch(/import \{\n {2}to = tenantform_user\.\w+\n {2}identity = \{\n {4}user_id = "<user_id>"\n {2}\}\n\}/);
  });

  it('shows its list resource with a .tfquery.hcl example when its objects can be listed (Terraform 1.14)', () => {
    expect(page('tenant')).toContain('## List resource (Terraform 1.14 and later)');
    expect(page('tenant')).toContain('list "tenantform_tenant" "all" {');
    expect(page('tenant_setting')).toContain('names           = ["<name>"]');
    // The platform cannot list event subscriptions.
    expect(page('event_subscription')).not.toContain('## List resource');
  });
});
