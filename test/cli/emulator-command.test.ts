/**
 * `tenantform emulator` as the README starts it: `eval "$(tenantform emulator ... &)"` returns
 * once the export lines are printed (the emulator keeps running in the background), and the
 * exported address answers.
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { CLI, run } from './helpers';

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

test('a connection kept alive by a client of the emulator started that way is closed when idle, never left hanging', async () => {
  const script = `eval "$("${process.execPath}" "${CLI}" emulator --port 0 --quiet &)"; printf '%s\\n' "$TENANTFORM_BASE_URL"`;
  const shell = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  shell.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  try {
    expect(await new Promise<number | null>((resolve) => shell.once('exit', resolve))).toBe(0);
    const { hostname, port } = new URL(stdout.trim());
    // The first connection the emulator accepts after its export lines: the one that took the
    // descriptor of its closed standard output.
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    socket.write(`GET /_emulator/world HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
    // The server ends the idle kept-alive connection (its keep-alive timeout): the client is told.
    await new Promise<void>((resolve) => socket.once('end', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  } finally {
    try {
      process.kill(-(shell.pid as number), 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}, 30_000);

test('a port already taken is refused with the way to a free one, --port 0', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    const r = await run({ dir: tmpdir(), env: { PATH: process.env.PATH } }, ['emulator', '--port', String(port), '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is taken`);
    expect(r.stderr).toContain('tenantform emulator --port 0');
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});
