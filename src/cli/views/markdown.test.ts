import type { Plan, PlannedChange } from '../../plans/model';
import { manyResourcesPlan, mixedPlan, noChangesPlan, noChangesWithDriftPlan, OLD_SECRET_HASH, safePlan, SECRET, sensitivePlan } from './fixtures';
import { firstScreen } from '../../../test/helpers/first-screen';
import { DEFAULT_MAX_LENGTH, escapeMarkdown, inlineCode, renderMarkdown } from './markdown';

const OMISSION = /Details of (\d+) resources? omitted to fit the comment limit; run `tenantform plan` to see them\./;

function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((l) => /^\| (create|update in-place|replace|destroy|…) \|/.test(l));
}

describe('renderMarkdown', () => {
  it('renders creates, updates, replacements, destroys and drift', () => {
    expect(renderMarkdown(mixedPlan)).toMatchSnapshot();
  });

  it('renders a plan without changes', () => {
    expect(renderMarkdown(noChangesPlan)).toMatchSnapshot();
  });

  it('still shows drift when nothing changes', () => {
    const markdown = renderMarkdown(noChangesWithDriftPlan);
    expect(markdown).toMatchSnapshot();
    expect(markdown.split('\n')[0]).toBe('**No changes.** Your configuration matches the platform.');
    expect(markdown).toContain('### Changed outside tenantform');
    expect(markdown).toContain('+ channel = "stable"');
  });

  it('renders sensitive values and values known after apply', () => {
    expect(renderMarkdown(sensitivePlan)).toMatchSnapshot();
  });

  it('starts with the summary line', () => {
    expect(renderMarkdown(mixedPlan).split('\n')[0]).toBe('**Plan:** 2 to add, 1 to change, 2 to destroy.');
  });

  it('warns about destroys and replacements, naming them', () => {
    const markdown = renderMarkdown(mixedPlan);
    const banner = markdown.split('\n').filter((l) => l.startsWith('>'));
    expect(banner[0]).toBe('> [!WARNING]');
    expect(banner.join('\n')).toContain('`tenantform_application_binding.acme_backup` must be replaced');
    expect(banner.join('\n')).toContain('`tenantform_usage_report.monthly` will be destroyed');
    expect(banner.join('\n')).not.toContain('tenantform_infra_component.primary');
  });

  it('shows no banner when nothing is destroyed or replaced', () => {
    const markdown = renderMarkdown(safePlan);
    expect(markdown).toMatchSnapshot();
    expect(markdown).not.toContain('[!WARNING]');
    expect(renderMarkdown(noChangesPlan)).not.toContain('[!WARNING]');
  });

  it('lists every resource that changes in the table', () => {
    const rows = tableRows(renderMarkdown(mixedPlan));
    expect(rows).toEqual([
      '| create | `tenantform_infra_component.primary` |',
      '| update in-place | `tenantform_tenant_setting.acme_retention` |',
      '| replace | `tenantform_application_binding.acme_backup` |',
      '| destroy | `tenantform_usage_report.monthly` |',
    ]);
  });

  it('details only the changed and identifying attributes, JSON by meaning', () => {
    const markdown = renderMarkdown(mixedPlan);
    const start = markdown.indexOf('acme_retention</code> will be updated');
    const block = markdown.slice(start, markdown.indexOf('</details>', start));
    expect(block).toContain('- value.days = 30\n+ value.days = 90');
    expect(block).toContain('  name = "retention"');
    expect(block).not.toMatch(/mode|archive|effective/);
  });

  it('never shows a sensitive value', () => {
    const markdown = renderMarkdown(sensitivePlan);
    expect(markdown).not.toContain(SECRET);
    expect(markdown).not.toContain(OLD_SECRET_HASH);
    expect(markdown).toContain('+ secret = (sensitive value)');
  });

  describe('size limit', () => {
    const plan = manyResourcesPlan(60);

    it('fits the default limit without cutting a small plan', () => {
      const markdown = renderMarkdown(plan);
      expect(markdown.length).toBeLessThanOrEqual(DEFAULT_MAX_LENGTH);
      expect(markdown).not.toMatch(OMISSION);
      expect(markdown.match(/<details>/g)).toHaveLength(60);
    });

    it('cuts the last details first and says how many', () => {
      const markdown = renderMarkdown(plan, { maxLength: 8000 });
      expect(markdown).toMatchSnapshot();
      expect(markdown.length).toBeLessThanOrEqual(8000);
      const kept = markdown.match(/<details>/g)?.length ?? 0;
      const omitted = Number(OMISSION.exec(markdown)?.[1]);
      expect(kept).toBeGreaterThan(0);
      expect(kept + omitted).toBe(60);
      // The kept details are the first ones.
      expect(markdown).toContain('<code>tenantform_tenant_setting.tenant_000</code>');
      expect(markdown).not.toContain('<code>tenantform_tenant_setting.tenant_059</code>');
      // The table and the banner stay whole.
      expect(tableRows(markdown)).toHaveLength(60);
      expect(markdown).toContain('> [!WARNING]');
      expect(markdown).toContain('> - `tenantform_tenant_setting.tenant_050` will be destroyed');
    });

    it('shortens the table only when even the table does not fit', () => {
      const markdown = renderMarkdown(plan, { maxLength: 1500 });
      expect(markdown.length).toBeLessThanOrEqual(1500);
      expect(markdown).toMatch(OMISSION);
      expect(markdown).toMatch(/\| … \| \d+ more resources \|/);
    });

    it('stays under the limit whatever it is', () => {
      for (const maxLength of [50, 200, 700]) {
        expect(renderMarkdown(plan, { maxLength }).length).toBeLessThanOrEqual(maxLength);
      }
    });
  });

  describe('escaping', () => {
    it('escapes pipes and backticks in text', () => {
      expect(escapeMarkdown('a|b `c`')).toBe('a\\|b \\`c\\`');
    });

    it('keeps code spans intact around backticks and table pipes', () => {
      expect(inlineCode('a`b')).toBe('``a`b``');
      expect(inlineCode('`a')).toBe('`` `a ``');
      expect(inlineCode('x["a|b"]', true)).toBe('`x["a\\|b"]`');
    });

    it('escapes values that would break the comment', () => {
      const change = mixedPlan.changes[2];
      const plan: Plan = {
        ...mixedPlan,
        changes: [
          {
            ...change,
            address: 'tenantform_tenant_setting.x["a|b"]',
            before: { ...change.before, value: '"```"' },
            after: { ...change.after, value: '"````"' },
          },
        ],
        drift: [],
        diagnostics: [{ severity: 'warning', summary: 'Pipe | and `tick`', detail: '<b>not html</b>' }],
      };
      const markdown = renderMarkdown(plan);
      expect(markdown).toContain('| update in-place | `tenantform_tenant_setting.x["a\\|b"]` |');
      // A fence longer than any run of backticks in the block.
      expect(markdown).toContain('\n`````diff\n');
      expect(markdown).toContain('\n`````\n');
      expect(markdown).toContain('Pipe \\| and \\`tick\\`<br>\\<b\\>not html\\</b\\>');
      expect(markdown).toContain('<code>tenantform_tenant_setting.x[&quot;a|b&quot;]</code>');
    });
  });
});

describe('diagnostics of a folder of Terraform files', () => {
  it('name the file, and the line, the block is written at', () => {
    const invalid = { severity: 'error' as const, summary: 'Invalid value for name', detail: 'Expected a string.', path: ['name'] };
    const plan: Plan = {
      ...noChangesPlan,
      diagnostics: [
        { ...invalid, address: 'tenantform_tenant.customer', file: 'customers.tf', line: 9 },
        { ...invalid, address: 'tenantform_user.admin', summary: 'Other', file: 'users.tf' },
        { ...invalid, address: 'tenantform_user.other', summary: 'Other', file: 'other.tf' },
      ],
    };
    const markdown = renderMarkdown(plan);
    expect(markdown).toContain('- **Error:** `tenantform_tenant.customer: name`: on `customers.tf` line 9: Invalid value for name<br>Expected a string.');
    // The same problem in two files is said once, naming the objects rather than one of the files.
    expect(markdown).toContain('- **Error:** 2 objects (`tenantform_user.admin`, `tenantform_user.other`) at `name`: Other<br>');
  });
});

describe('what a reviewer reads first', () => {
  const change = (type: string, name: string): PlannedChange => ({
    address: `${type}.${name}`,
    mode: 'managed',
    type,
    name,
    action: 'delete',
    before: { id: `${name}-id`, name },
    after: null,
    requiresReplace: [],
    changed: [],
    sensitive: [],
    identifying: ['name'],
  });
  const forgetting = 'The platform has no operation to delete an event subscription.';
  const plan: Plan = {
    ...noChangesPlan,
    changes: [change('tenantform_tenant', 'contoso'), change('tenantform_event_subscription', 'audit'), change('tenantform_event_subscription', 'billing')],
    diagnostics: [
      {
        severity: 'warning',
        code: 'delete_takes_more',
        summary: 'Deleting this object deletes more',
        detail: 'Destroying the customer tenant "Contoso" disables it, then deletes it with its users and data.',
        address: 'tenantform_tenant.contoso',
      },
      {
        severity: 'warning',
        code: 'delete_only_forgets',
        summary: 'The platform cannot delete this object',
        detail: forgetting,
        address: 'tenantform_event_subscription.audit',
      },
      {
        severity: 'warning',
        code: 'delete_only_forgets',
        summary: 'The platform cannot delete this object',
        detail: forgetting,
        address: 'tenantform_event_subscription.billing',
      },
    ],
  };

  it('leads with what a destroy takes with it, and says it once', () => {
    const markdown = renderMarkdown(plan);
    const banner = markdown.split('\n').filter((l) => l.startsWith('>'));
    expect(banner).toEqual([
      '> [!WARNING]',
      '> This plan destroys 1 resource. Review before merging:',
      '> - `tenantform_tenant.contoso` will be destroyed: Destroying the customer tenant "Contoso" disables it, then deletes it with its users and data.',
    ]);
    expect(markdown.split('its users and data').length - 1).toBe(1);
  });

  it('shows an object the platform cannot delete as forgotten, and its warning once for all of them', () => {
    const markdown = renderMarkdown(plan);
    expect(markdown).toContain('| forget (the platform cannot delete it) | `tenantform_event_subscription.audit` |');
    expect(markdown).not.toMatch(/destroy \| `tenantform_event_subscription/);
    expect(markdown.split(forgetting).length - 1).toBe(1);
    expect(markdown).toContain('2 objects (`tenantform_event_subscription.audit`, `tenantform_event_subscription.billing`)');
  });

  it('on the rendered page of a 2,000-change plan, the tenant deletion and its consequence come first', () => {
    const updates = manyResourcesPlan(1997, { distinct: false }).changes.filter((c) => c.action !== 'delete');
    const big: Plan = { ...plan, changes: [...updates, ...plan.changes] };
    const first = firstScreen(renderMarkdown(big), 5).join('\n');
    expect(first).toContain('This plan destroys 1 resource');
    expect(first).toContain(
      'tenantform_tenant.contoso will be destroyed: Destroying the customer tenant "Contoso" disables it, then deletes it with its users and data.',
    );
    expect(renderMarkdown(big).length).toBeLessThanOrEqual(DEFAULT_MAX_LENGTH);
  });
});
