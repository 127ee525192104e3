/**
 * The GitLab drift job's listing of what drifted, run as the job runs it (its `node -e` line,
 * taken from examples/gitlab-ci/.gitlab-ci.yml) on the JSON report `tenantform drift` writes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderDriftJson } from '../../src/cli/views/drift-report';

test('lists every object that changed, was deleted or could not be read, and none in sync', () => {
  const job = readFileSync(join(__dirname, '..', '..', 'examples', 'gitlab-ci', '.gitlab-ci.yml'), 'utf8');
  const script = /node -e '(.*drift\.json.*)'$/m.exec(job)?.[1];
  expect(script).toBeDefined();
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-drift-job-'));
  try {
    const resource = (address: string, status: 'in_sync' | 'drifted' | 'deleted' | 'unknown') => ({
      address,
      type: 'tenantform_infra_component',
      status,
      changes: [],
      ignored: [],
      sensitive: [],
    });
    const report = {
      stack: 'main',
      resources: [
        resource('tenantform_infra_component.a', 'in_sync'),
        resource('tenantform_infra_component.b', 'drifted'),
        resource('tenantform_infra_component.c', 'deleted'),
      ],
      configurationDiffers: [],
      diagnostics: [],
      tenantIds: [],
    };
    writeFileSync(join(dir, 'drift.json'), renderDriftJson(report));
    const listed = execFileSync(process.execPath, ['-e', script as string], { cwd: dir, encoding: 'utf8' });
    expect(listed).toBe('- tenantform_infra_component.b: drifted\n- tenantform_infra_component.c: deleted\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
