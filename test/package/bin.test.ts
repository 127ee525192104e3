import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

test('the command of a package that was never built says so and how to build it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-unbuilt-'));
  try {
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(ROOT, 'bin', 'tenantform.js'), join(dir, 'bin', 'tenantform.js'));
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'tenantform.js'), 'plan'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`tenantform is not built: ${join(dir, 'dist', 'bundle', 'tenantform.js')} is missing.`);
    expect(r.stderr).toContain('npm run build');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
