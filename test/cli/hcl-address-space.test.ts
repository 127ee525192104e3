/**
 * A runner that limits the address space of its processes (`ulimit -v`, as some CI runners and
 * shared hosts do): reading `.tf` files starts a WebAssembly program, which reserves about 10 GB
 * of address space on 64-bit machines whatever it uses, so under 8 GB it cannot start. The command
 * says so, and what to do, instead of crashing with a stack trace.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, startWorld, type CliResult, type World } from './helpers';

const LIMIT_KIB = 8_000_000;

/** The command run by bash under the address-space limit. */
function runLimited(world: World, args: string[]): Promise<CliResult> {
  const child = spawn('bash', ['-c', `ulimit -v ${LIMIT_KIB}; exec "$0" "$@"`, process.execPath, CLI, ...args], {
    cwd: world.dir,
    env: world.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

describe('a folder of .tf files under an address-space limit', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('names the converter, the likely cause and what to do, without a stack trace and before anything is sent', async () => {
    writeFileSync(join(world.dir, 'main.tf'), 'provider "tenantform" {}\n\ndata "tenantform_tenant" "northwind" {\n  name = "Northwind Partner"\n}\n');
    world.requests.length = 0;
    const r = await runLimited(world, ['plan']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error: Cannot start the converter of .tf files: Reading .tf files starts a WebAssembly program, and it could not reserve its memory',
    );
    expect(r.stderr).toContain('The likely cause is a limit on the address space of processes (`ulimit -v`)');
    expect(r.stderr).toContain('Run without the limit (`ulimit -v unlimited`), or give the configuration as Terraform JSON');
    expect(r.stderr).not.toMatch(/RangeError|\n\s+at /);
    expect(world.requests).toEqual([]);
  });
});
