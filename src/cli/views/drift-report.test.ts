import type { DriftReport } from '../../drift/model';
import { isDrifted, summarizeDrift } from '../../drift/detect';
import { firstScreen } from '../../../test/helpers/first-screen';
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from './drift-report';

const report: DriftReport = {
  stack: 'main',
  resources: [
    {
      address: 'tenantform_tenant_setting.window',
      type: 'tenantform_tenant_setting',
      status: 'drifted',
      changes: [{ path: ['value'], state: '{"start":"22:00","end":"04:00"}', live: '{"end":"04:00","start":"23:00"}' }],
      ignored: [],
      sensitive: [],
    },
    { address: 'tenantform_infra_component.primary', type: 'tenantform_infra_component', status: 'deleted', changes: [], ignored: [], sensitive: [] },
    { address: 'tenantform_infra_component.named', type: 'tenantform_infra_component', status: 'in_sync', changes: [], ignored: ['name'], sensitive: [] },
    {
      address: 'tenantform_example.credentials',
      type: 'tenantform_example',
      status: 'drifted',
      changes: [{ path: ['token'], state: 'old-secret', live: 'new-secret' }],
      ignored: [],
      sensitive: ['token'],
    },
  ],
  configurationDiffers: [{ address: 'tenantform_usage_report.monthly', action: 'update' }],
  diagnostics: [],
  tenantIds: [],
};

describe('drift reports', () => {
  it('summarizes and tells drift from sync', () => {
    expect(summarizeDrift(report)).toEqual({ total: 4, in_sync: 1, drifted: 2, deleted: 1, unknown: 0 });
    expect(isDrifted(report)).toBe(true);
    expect(isDrifted({ ...report, resources: [report.resources[2]] })).toBe(false);
  });

  it('gives JSON with a summary and, per resource, the leaf paths that moved (key order is no change)', () => {
    const json = JSON.parse(renderDriftJson(report));
    expect(json.summary).toEqual({ total: 4, in_sync: 1, drifted: 2, deleted: 1, unknown: 0 });
    expect(json.resources[0]).toEqual({
      address: 'tenantform_tenant_setting.window',
      type: 'tenantform_tenant_setting',
      status: 'drifted',
      changes: [{ path: 'value.start', state: '22:00', live: '23:00' }],
      ignored_changes: [],
    });
    expect(json.resources[1]).toMatchObject({ status: 'deleted', changes: [] });
    expect(json.configuration_differs).toEqual([{ address: 'tenantform_usage_report.monthly', action: 'update' }]);
  });

  it('never shows a sensitive value', () => {
    for (const text of [renderDriftJson(report), renderDriftText(report), renderDriftMarkdown(report)]) {
      expect(text).not.toContain('secret');
      expect(text).toContain('(sensitive value)');
    }
  });

  it('writes text and markdown a person reads', () => {
    const text = renderDriftText(report);
    expect(text).toContain('4 resources: 1 in sync, 2 changed outside tenantform, 1 deleted outside tenantform.');
    expect(text).toContain('      value.start: "22:00" (state) -> "23:00" (live)');
    expect(text).toContain('  - tenantform_infra_component.primary: deleted outside tenantform');
    expect(text).toContain('In sync (1):\n    tenantform_infra_component.named (changes of name ignored by lifecycle.ignore_changes)');
    expect(text).toContain('    tenantform_usage_report.monthly (update)');
    const markdown = renderDriftMarkdown(report);
    expect(markdown).toContain('| `tenantform_infra_component.primary` | deleted outside tenantform | | | |');
  });

  it('quotes commands in markdown as code, never as backticks behind backslashes (a job summary shows those)', () => {
    const withProblem: DriftReport = {
      ...report,
      diagnostics: [{ severity: 'error', summary: 'Cannot read', detail: 'Run `tenantform plan` to see the reason_code.' }],
    };
    const markdown = renderDriftMarkdown(withProblem);
    expect(markdown).toContain('(not drift; `tenantform plan` shows how):');
    expect(markdown).toContain('Run `tenantform plan` to see the reason\\_code.');
    expect(markdown).not.toContain('\\`');
  });

  it('puts what needs a person first: deleted, then changed, with a count per kind; the objects in sync after them', () => {
    const text = renderDriftText(report);
    expect(text).toContain('By kind: tenantform_example: 1 changed; tenantform_infra_component: 1 deleted; tenantform_tenant_setting: 1 changed.');
    const order = ['tenantform_infra_component.primary', 'tenantform_tenant_setting.window', 'tenantform_example.credentials', 'In sync (1)'].map((s) =>
      text.indexOf(s),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The JSON keeps every object, in the order of the state.
    expect(JSON.parse(renderDriftJson(report)).resources.map((r: { address: string }) => r.address)).toEqual(report.resources.map((r) => r.address));
  });
});

describe('the drift report of a large estate, as a reviewer sees it rendered', () => {
  const estate: DriftReport = {
    stack: 'estate',
    resources: Array.from({ length: 2000 }, (_, i) => {
      const address = `tenantform_infra_component.site_${String(i).padStart(4, '0')}`;
      const drifted = i === 506 || i === 1506;
      const deleted = i === 1999;
      return {
        address,
        type: 'tenantform_infra_component',
        status: deleted ? ('deleted' as const) : drifted ? ('drifted' as const) : ('in_sync' as const),
        changes: drifted ? [{ path: ['url'], state: 'https://a.example', live: 'https://b.example' }] : [],
        ignored: [],
        sensitive: [],
      };
    }),
    configurationDiffers: [],
    diagnostics: [],
    tenantIds: [],
  };

  it('shows the deleted and changed objects on the first screen of the job summary, the 1,997 in sync folded', () => {
    const screen = firstScreen(renderDriftMarkdown(estate), 12);
    const seen = screen.join('\n');
    for (const address of ['site_1999', 'site_0506', 'site_1506']) expect(seen).toContain(address);
    expect(seen).toContain('1997 resources in sync');
    expect(seen).not.toContain('site_0000');
  });

  it('lists them first in text too', () => {
    const lines = renderDriftText(estate).split('\n');
    expect(lines.slice(0, 10).join('\n')).toMatch(/site_1999[\s\S]*site_0506[\s\S]*site_1506/);
  });
});
