import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

/** `npm start` runs `tenantform demo`: the README's main job, end to end on the emulator. */
test('the demo plans, applies, detects the outside change, repairs it and ends on an empty plan', async () => {
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'tenantform.js'), 'demo'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (exit) => resolve({ code: exit, stdout: out }));
  });
  expect(code).toBe(0);
  const steps = stdout.split('\n=== ');
  const step = (title: string) => steps.find((s) => s.startsWith(title)) ?? '';
  const plan = step('Plan\n');
  expect(plan).toContain('Plan: 14 to add, 0 to change, 0 to destroy.');
  expect(plan).toContain('# tenantform_tenant.contoso will be created');
  expect(plan).toMatch(/client_secret\s+= \(sensitive value\)/);
  const repair = step('Plan: the change outside tenantform');
  expect(repair).toContain('Objects have changed outside of tenantform');
  expect(repair).toMatch(/url\s+= "https:\/\/dr-old\.northwind\.example" -> "https:\/\/dr\.northwind\.example"/);
  expect(repair).toMatch(/value\s+= "30" -> "90"/);
  expect(repair).toMatch(/name\s+= "Contoso \(renamed in the console\)" -> "Contoso"/);
  expect(repair).toContain('Plan: 0 to add, 3 to change, 0 to destroy.');
  expect(step('Plan: nothing left to do')).toContain('No changes. Your configuration matches the platform.');
}, 180_000);
