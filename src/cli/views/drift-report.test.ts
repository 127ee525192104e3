import type { DriftReport } from '../../drift/detect';
import { isDrifted, summarizeDrift } from '../../drift/detect';
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
    expect(text).toContain('      value.start: "22:00" (state) → "23:00" (live)');
    expect(text).toContain('  - tenantform_infra_component.primary: deleted outside tenantform');
    expect(text).toContain('tenantform_infra_component.named: in sync (changes of name ignored by lifecycle.ignore_changes)');
    expect(text).toContain('    tenantform_usage_report.monthly (update)');
    const markdown = renderDriftMarkdown(report);
    expect(markdown).toContain('| `tenantform_infra_component.primary` | deleted outside tenantform | | | |');
  });
});
