import type { OutputChange, Plan, PlannedChange } from '../../plans/model';
import { mixedPlan, noChangesPlan, noChangesWithDriftPlan, OLD_SECRET_HASH, safePlan, SECRET, sensitivePlan } from './fixtures';
import { NO_CHANGES_TEXT, OUTPUTS_ONLY_TEXT, REFRESH_ONLY_TEXT, renderText, shouldColor } from './text';

const ANSI_PATTERN = /\x1b\[[0-9;]*m/g;

function lastLine(text: string): string {
  return text.trimEnd().split('\n').pop() ?? '';
}

function stream(isTTY: boolean | undefined): NodeJS.WriteStream {
  return { isTTY } as NodeJS.WriteStream;
}

describe('renderText', () => {
  it('ends a refresh-only plan with drift by saying how to accept it, not "No changes"', () => {
    const text = renderText({ ...noChangesWithDriftPlan, refreshOnly: true }, { color: false });
    expect(text.trimEnd().endsWith(REFRESH_ONLY_TEXT)).toBe(true);
    expect(text).not.toContain(NO_CHANGES_TEXT);
  });

  it('renders creates, updates, replacements, destroys and drift', () => {
    expect(renderText(mixedPlan, { color: false })).toMatchSnapshot();
  });

  it('renders a plan without changes', () => {
    expect(renderText(noChangesPlan, { color: false })).toMatchSnapshot();
  });

  it('renders sensitive values and values known after apply', () => {
    expect(renderText(sensitivePlan, { color: false })).toMatchSnapshot();
  });

  it('ends with Terraform’s summary line', () => {
    expect(lastLine(renderText(mixedPlan, { color: false }))).toBe('Plan: 2 to add, 1 to change, 2 to destroy.');
    expect(lastLine(renderText(sensitivePlan, { color: false }))).toBe('Plan: 2 to add, 0 to change, 1 to destroy.');
  });

  it('says there is nothing to do when nothing changes, after any drift', () => {
    expect(lastLine(renderText(noChangesPlan, { color: false }))).toBe(NO_CHANGES_TEXT);
    expect(NO_CHANGES_TEXT).toBe('No changes. Your configuration matches the platform.');
    const withDrift = renderText(noChangesWithDriftPlan, { color: false });
    expect(withDrift.startsWith('Objects have changed outside of tenantform')).toBe(true);
    expect(withDrift).toContain('channel: "beta" -> "stable"');
    expect(lastLine(withDrift)).toBe(NO_CHANGES_TEXT);
  });

  it('uses Terraform’s headlines and markers', () => {
    const text = renderText(mixedPlan, { color: false });
    expect(text).toContain('  # tenantform_infra_component.primary will be created\n  + resource');
    expect(text).toContain('  # tenantform_tenant_setting.acme_retention will be updated in-place\n  ~ resource');
    expect(text).toContain('  # tenantform_application_binding.acme_backup must be replaced\n-/+ resource');
    expect(text).toContain('  # tenantform_usage_report.monthly will be destroyed\n');
    expect(text).toContain('  - resource "tenantform_usage_report" "monthly" {');
    expect(text).toMatch(/~ tenant_id += "2b8e[^\n]*" -> "7f4c[^\n]*" # forces replacement/);
    expect(text).toMatch(/\+ id += \(known after apply\)/);
  });

  it('never shows a sensitive value', () => {
    const text = renderText(sensitivePlan, { color: true });
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(OLD_SECRET_HASH);
    expect(text).toContain('(sensitive value)');
  });

  it('compares JSON attributes by meaning: key order makes no line', () => {
    const text = renderText(mixedPlan, { color: false });
    const start = text.indexOf('acme_retention will be updated in-place');
    const block = text.slice(start, text.indexOf('\n    }', start));
    expect(block).toContain('~ days = 30 -> 90');
    expect(block).not.toMatch(/mode|archive/);
    // The drifted `effective` value only moved its keys.
    expect(text).not.toContain('effective');

    const reordered: PlannedChange = {
      ...mixedPlan.changes[2],
      before: { ...mixedPlan.changes[2].before, value: '{"a":1,"b":[1,2]}', lock: false },
      after: { ...mixedPlan.changes[2].after, value: '{ "b": [1, 2], "a": 1 }', lock: true },
      changed: ['value', 'lock'],
    };
    const plan: Plan = { ...mixedPlan, changes: [reordered], drift: [], diagnostics: [] };
    const only = renderText(plan, { color: false });
    expect(only).not.toMatch(/value/);
    expect(only).toContain('~ lock           = false -> true');
  });

  it('colours only when asked', () => {
    const plain = renderText(mixedPlan, { color: false });
    const coloured = renderText(mixedPlan, { color: true });
    expect(plain).not.toMatch(ANSI_PATTERN);
    expect(coloured).toContain('\x1b[32m+\x1b[0m');
    expect(coloured).toContain('\x1b[33m~\x1b[0m');
    expect(coloured).toContain('\x1b[31m-\x1b[0m');
    expect(coloured.replace(ANSI_PATTERN, '')).toBe(plain);
  });
});

describe('shouldColor', () => {
  it('colours a terminal', () => {
    expect(shouldColor(stream(true), {})).toBe(true);
  });

  it('never colours when NO_COLOR is set, whatever its value', () => {
    expect(shouldColor(stream(true), { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor(stream(true), { NO_COLOR: '' })).toBe(false);
  });

  it('never colours a pipe or a file', () => {
    expect(shouldColor(stream(false), {})).toBe(false);
    expect(shouldColor(stream(undefined), {})).toBe(false);
  });

  it('never colours a dumb terminal', () => {
    expect(shouldColor(stream(true), { TERM: 'dumb' })).toBe(false);
  });

  it('colours a pipe when FORCE_COLOR asks, unless NO_COLOR or --no-color says otherwise', () => {
    expect(shouldColor(stream(false), { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor(stream(false), { FORCE_COLOR: '' })).toBe(true);
    expect(shouldColor(stream(true), { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldColor(stream(false), { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(shouldColor(stream(true), { FORCE_COLOR: '1' }, false)).toBe(false);
    expect(shouldColor(stream(true), {}, false)).toBe(false);
  });
});

describe('changes to outputs', () => {
  const outputs: OutputChange[] = [
    { name: 'site_url', action: 'update', before: 'https://a', after: 'https://b', sensitive: false },
    { name: 'id', action: 'create', afterUnknown: true, sensitive: false },
    { name: 'token', action: 'delete', before: SECRET, sensitive: true },
    { name: 'same', action: 'no-op', before: 1, after: 1, sensitive: false },
  ];

  it("renders Terraform's block, names aligned, secrets masked", () => {
    const text = renderText({ ...safePlan, outputChanges: outputs }, { color: false });
    expect(text).toContain(
      'Changes to Outputs:\n  + id       = (known after apply)\n  ~ site_url = "https://a" -> "https://b"\n  - token    = (sensitive value) -> null\n\nPlan: 1 to add, 1 to change, 0 to destroy.',
    );
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('same');
  });

  it('says an outputs-only plan saves the new values', () => {
    const text = renderText({ ...noChangesPlan, outputChanges: outputs.slice(0, 1) }, { color: false });
    expect(text).toContain('Changes to Outputs:\n  ~ site_url');
    expect(text.trimEnd().endsWith(OUTPUTS_ONLY_TEXT)).toBe(true);
  });
});
