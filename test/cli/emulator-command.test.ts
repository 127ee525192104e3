/**
 * `tenantform emulator` as the README starts it: `eval "$(tenantform emulator ... &)"` returns
 * once the export lines are printed (the emulator keeps running in the background), and the
 * exported address answers.
 */
import { spawn } from 'node:child_process';
import { CLI } from './helpers';

test('eval "$(tenantform emulator &)" returns with the address and credentials exported, the emulator running', async () => {
  const script = `eval "$("${process.execPath}" "${CLI}" emulator --port 0 --quiet &)"; printf '%s\\n' "$TENANTFORM_BASE_URL" "$TENANTFORM_CLIENT_ID"`;
  // Its own process group, so that the emulator left running in the background is stopped with it.
  const shell = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  shell.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  try {
    const code = await new Promise<number | null>((resolve) => shell.once('exit', resolve));
    expect(code).toBe(0);
    const [url, clientId] = stdout.trim().split('\n');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(clientId).not.toBe('');
    const answer = await fetch(`${url}/_emulator/world`);
    expect(answer.status).toBe(200);
  } finally {
    try {
      process.kill(-(shell.pid as number), 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
});
