/**
 * "Secrets never appear in output, plans or logs": every command a pipeline runs, in every
 * format, with the debug log on, scanned for the provider's client secret, the secret the
 * platform issued to a declared API client, and any token. Only the state and a saved plan hold
 * the issued secret (as with Terraform), and the commands whose purpose is to print it
 * (`output NAME`, `output -raw NAME` and `state pull`, as with Terraform).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, filesUnder, infra, run, startWorld, writeConfig, type World } from './helpers';

jest.setTimeout(180_000);

describe('a secret in every output of every command', () => {
  let world: World;
  let file: string;
  const outputs: Array<{ what: string; text: string }> = [];
  const LOG = 'tenantform-debug.log';

  /** Runs a command with the debug log on, keeping both of its streams for the scan. */
  const record = async (args: string[], expectCode?: number) => {
    const r = await run(world, args, { TF_LOG: 'trace', TF_LOG_PATH: join(world.dir, LOG) });
    const what = args.join(' ');
    outputs.push({ what: `${what} (stdout)`, text: r.stdout }, { what: `${what} (stderr)`, text: r.stderr });
    if (expectCode !== undefined) expect({ what, code: r.code, stderr: r.code === expectCode ? '' : r.stderr }).toEqual({ what, code: expectCode, stderr: '' });
    return r;
  };

  beforeAll(async () => {
    world = await startWorld();
    file = writeConfig(world, {
      ...configWith({
        tenantform_api_client: { monitoring: { tenant_id: '${data.tenantform_tenant.northwind.id}' } },
        tenantform_infra_component: { site: infra('Scanned Site') },
      }),
      output: {
        monitoring_secret: { value: '${tenantform_api_client.monitoring.client_secret}', sensitive: true },
        monitoring_id: { value: '${tenantform_api_client.monitoring.id}' },
      },
    });
  });
  afterAll(() => world.close());

  it('appears nowhere but the state, a saved plan and the commands that print it on purpose', async () => {
    const cfg = ['--config', file];
    await record(['validate', ...cfg], 0);
    await record(['plan', ...cfg, '--out', 'first.plan'], 0);
    await record(['apply', 'first.plan', ...cfg], 0);

    // The secret the platform issued, as the command meant for scripts prints it.
    const raw = await run(world, ['output', '-raw', 'monitoring_secret', ...cfg]);
    const issued = raw.stdout;
    expect(issued.length).toBeGreaterThan(16);

    // Someone disables the client by hand: drift, and a plan that changes it back.
    const clientId = JSON.parse((await run(world, ['output', '-json', ...cfg])).stdout).monitoring_id.value as string;
    await world.client.updateApiClient(clientId, { status: 'disabled' });

    for (const args of [
      ['plan'],
      ['plan', '-format=json'],
      ['plan', '-format=markdown'],
      ['plan', '--out', 'second.plan'],
      ['show', 'second.plan'],
      ['show', '-json', 'second.plan'],
      ['show'],
      ['show', '-json'],
      ['output'],
      ['output', '-json'],
      ['state', 'list'],
      ['state', 'show', 'tenantform_api_client.monitoring'],
      ['drift', '-summary-file', 'summary.md'],
      ['drift', '-format=json'],
      ['drift', '-format=markdown'],
      ['apply', '-refresh-only', '-auto-approve'],
      ['apply', '-auto-approve'],
      ['plan', '-destroy'],
      ['version'],
    ]) {
      await record([...args, ...cfg]);
    }
    await record(['export', '--tenant', world.tenant('Northwind Partner'), '--format', 'json', '--out', 'exported.tf.json', '--imports', 'imports.sh']);

    const secrets = { 'the issued client secret': issued, 'the provider client secret': world.emulator.clientSecret };
    const leaks: string[] = [];
    const scan = (what: string, text: string) => {
      for (const [name, secret] of Object.entries(secrets)) if (text.includes(secret)) leaks.push(`${name} in ${what}`);
      if (/bearer\s+\S{8,}|"access_token"\s*:/i.test(text)) leaks.push(`a token in ${what}`);
    };
    for (const o of outputs) scan(o.what, o.text);
    const files = filesUnder(world.dir);
    expect(files).toEqual(expect.arrayContaining([LOG, 'summary.md', 'exported.tf.json', 'imports.sh']));
    for (const name of files) {
      // The state and saved plans hold the issued secret, as Terraform's do (the README says so).
      if (/\.tfstate(\.backup)?$/.test(name) || name.endsWith('.plan')) continue;
      scan(name, readFileSync(join(world.dir, name), 'utf8'));
    }
    expect(leaks).toEqual([]);
    // The scan saw the runs: the log holds their requests.
    expect(readFileSync(join(world.dir, LOG), 'utf8')).toMatch(/POST \/api\/2\/clients: status=201/);
  });
});
