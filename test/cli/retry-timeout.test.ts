/**
 * The retry time budget: from the command line, the provider block or the environment, and
 * checked before anything is sent.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLI, configWith, run, startWorld, writeConfig, type World } from './helpers';

describe('retry timeout', () => {
  let world: World;
  let refusedUrl: string;
  beforeAll(async () => {
    world = await startWorld();
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    refusedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise<void>((r) => server.close(() => r()));
  });
  afterAll(() => world.close());

  it('gives up on a platform that refuses connections once the budget is spent, whichever way it is set', async () => {
    const file = writeConfig(world, configWith({}));
    for (const [args, env] of [
      [['--retry-timeout', '1'], {}],
      [[], { TENANTFORM_RETRY_TIMEOUT: '1' }],
    ] as const) {
      const r = await run(world, ['plan', '--config', file, ...args], { TENANTFORM_BASE_URL: refusedUrl, ...env });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('the connection was refused');
      expect(r.stdout + r.stderr).toContain('the retry time budget is spent');
    }
  });

  it('shows each retry as it happens on a terminal, with the time its retries have left; not in a pipe', async () => {
    const file = writeConfig(world, configWith({}));
    const command = [process.execPath, CLI, 'plan', '--config', file, '--retry-timeout', '3'].map((w) => `'${w}'`).join(' ');
    // `script` gives the command a terminal, as a user at a shell has.
    const onTerminal = await new Promise<string>((resolve) => {
      execFile('script', ['-qec', command, '/dev/null'], { cwd: world.dir, env: { ...world.env, TENANTFORM_BASE_URL: refusedUrl } }, (_err, stdout) =>
        resolve(stdout),
      );
    });
    expect(onTerminal).toMatch(/Retrying POST \/api\/2\/idp\/token \(connection refused\) in \d+ s, \d+ s left\./);
    expect(onTerminal).toContain('the retry time budget is spent');
    const piped = await run(world, ['plan', '--config', file, '--retry-timeout', '1'], { TENANTFORM_BASE_URL: refusedUrl });
    expect(piped.stderr).not.toContain('Retrying');
  });

  it('refuses a retry timeout that is not a number of seconds', async () => {
    const flag = await run(world, ['plan', '--retry-timeout', '-3']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--retry-timeout must be a number of seconds from 0 to 86400.');

    const env = await run(world, ['plan', '--config', writeConfig(world, configWith({}))], { TENANTFORM_RETRY_TIMEOUT: 'soon' });
    expect(env.code).toBe(1);
    expect(env.stderr).toContain('TENANTFORM_RETRY_TIMEOUT must be a number of seconds from 0 to 86400, found "soon".');

    const config = configWith({}) as { provider: { tenantform: Array<Record<string, unknown>> } };
    config.provider.tenantform[0].retry_timeout = 'forever';
    const block = await run(world, ['plan', '--config', writeConfig(world, config)]);
    expect(block.code).toBe(1);
    expect(block.stderr).toContain('provider.tenantform: retry_timeout: Invalid value for retry_timeout');
    expect(block.stderr).toContain('Expected a number; found "forever"');
    expect(world.requests.some((l) => l.startsWith('GET /api'))).toBe(false);
  });
});
