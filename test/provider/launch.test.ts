/**
 * The compiled provider launched as Terraform launches it, spoken to over gRPC with mutual
 * TLS by a client of this test: the handshake, the schema, diagnostics with attribute paths,
 * plans, Ctrl-C, StopProvider and Shutdown.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { encode } from '@msgpack/msgpack';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../src/provider/handshake';
import { loadProtocol } from '../../src/provider/protocol';
import { createServerIdentity, toPem } from '../../src/provider/tls';
import { decodeMsgpack } from '../../src/provider/values';
import { Unknown } from '../../src/resources/values';
import { ensureBuilt, PROVIDER_MAIN } from './helpers';

jest.setTimeout(60_000);

type Call = (request: object) => Promise<Record<string, any>>;

function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('TENANTFORM_') || key.startsWith('TF_') || key.startsWith('PLUGIN_')) delete env[key];
  return env;
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.once('exit', (code) => r(code)));
}

const msgpack = (v: unknown) => ({ msgpack: Buffer.from(encode(v)) });

beforeAll(async () => {
  await ensureBuilt();
});

test('run by hand, it explains itself and exits', async () => {
  const child = spawn(process.execPath, [PROVIDER_MAIN], { env: baseEnv() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  expect(await exited(child)).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toContain('plugin that Terraform starts itself');
  expect(stderr).toContain('tenantform provider install');
});

describe('launched with AutoMTLS', () => {
  const clientIdentity = createServerIdentity();
  let child: ChildProcessWithoutNullStreams;
  let handshake: string;
  let provider: Record<string, Call>;
  let controller: Record<string, Call>;
  let stderr = '';

  beforeAll(async () => {
    child = spawn(process.execPath, [PROVIDER_MAIN], {
      env: {
        ...baseEnv(),
        [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: '5,6',
        PLUGIN_MIN_PORT: '10000',
        PLUGIN_MAX_PORT: '25000',
        PLUGIN_CLIENT_CERT: clientIdentity.certificatePem,
      },
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    handshake = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    const [, , , address, , certificate] = handshake.trim().split('|');
    const serverPem = toPem('CERTIFICATE', Buffer.from(certificate, 'base64'));
    const credentials = grpc.credentials.createSsl(
      Buffer.from(serverPem),
      Buffer.from(clientIdentity.privateKeyPem),
      Buffer.from(clientIdentity.certificatePem),
    );
    const options = { 'grpc.ssl_target_name_override': 'localhost', 'grpc.default_authority': 'localhost' };

    const pkg = grpc.loadPackageDefinition(loadProtocol()) as any;
    const promisify = (client: grpc.Client & Record<string, unknown>): Record<string, Call> =>
      new Proxy({} as Record<string, Call>, {
        get: (_t, name: string) => (request: object) =>
          new Promise((resolve, reject) =>
            (client[name] as (r: object, cb: (e: Error | null, v: Record<string, unknown>) => void) => void).call(client, request, (e, v) =>
              e ? reject(e) : resolve(v),
            ),
          ),
      });
    provider = promisify(new pkg.tfplugin6.Provider(address, credentials, options));
    controller = promisify(new pkg.plugin.GRPCController(address, credentials, options));
  });

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  test('prints exactly one handshake line: core 1, protocol 6, tcp in the port range, grpc, the certificate unpadded', () => {
    expect(handshake).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|[A-Za-z0-9+/]+\n$/);
    const port = Number(/:(\d+)\|/.exec(handshake)![1]);
    expect(port).toBeGreaterThanOrEqual(10000);
    expect(port).toBeLessThanOrEqual(25000);
  });

  test('serves the schema: kinds, provider block with the secret marked sensitive, plan_destroy', async () => {
    const schema = await provider.GetProviderSchema({});
    expect(schema.server_capabilities.plan_destroy).toBe(true);
    const providerAttrs = schema.provider.block.attributes as Array<Record<string, unknown>>;
    expect(providerAttrs.find((a) => a.name === 'client_secret')).toMatchObject({ sensitive: true, optional: true });
    expect(Object.keys(schema.resource_schemas)).toEqual(
      expect.arrayContaining(['tenantform_application_binding', 'tenantform_tenant_setting', 'tenantform_infra_component']),
    );
    expect(Object.keys(schema.data_source_schemas)).toEqual(expect.arrayContaining(['tenantform_application']));
    const infra = schema.resource_schemas.tenantform_infra_component.block.attributes as Array<Record<string, any>>;
    const capabilities = infra.find((a) => a.name === 'capabilities')!;
    expect(JSON.parse(Buffer.from(capabilities.type).toString())).toEqual(['list', 'string']);
    expect(infra.find((a) => a.name === 'version')).toMatchObject({ computed: true, optional: false, required: false });
    expect(infra.find((a) => a.name === 'name')!.description).toMatch(/\S/);
    const updates = schema.resource_schemas.tenantform_agent_update_settings?.block.attributes as Array<Record<string, any>> | undefined;
    if (updates) expect(updates.find((a) => a.name === 'maintenance_window')!.nested_type.nesting).toBe('SINGLE');
  });

  test('a configuration problem comes back as a diagnostic with the attribute path', async () => {
    const r = await provider.ValidateResourceConfig({
      type_name: 'tenantform_infra_component',
      config: msgpack({ owner_tenant_id: 'nope', name: 'n', url: 'https://a.example.com', capabilities: ['backup', 'teleport'], id: null, version: null }),
    });
    const paths = r.diagnostics.map((d: { attribute: { steps: unknown[] } }) => d.attribute.steps);
    expect(paths).toContainEqual([{ attribute_name: 'owner_tenant_id', selector: 'attribute_name' }]);
    expect(paths).toContainEqual([
      { attribute_name: 'capabilities', selector: 'attribute_name' },
      { element_key_int: 1, selector: 'element_key_int' },
    ]);
    expect(r.diagnostics[0].severity).toBe('ERROR');
  });

  test('configuring without credentials names what is missing and where to set it', async () => {
    const r = await provider.ConfigureProvider({ terraform_version: '1.11.0', config: msgpack({ base_url: null, client_id: null, client_secret: null }) });
    expect(r.diagnostics.map((d: { summary: string }) => d.summary)).toEqual(['Missing base_url', 'Missing client_id', 'Missing client_secret']);
    expect(r.diagnostics[0].detail).toContain('TENANTFORM_BASE_URL');
    expect(r.diagnostics[0].attribute.steps[0].attribute_name).toBe('base_url');
  });

  const prior = {
    id: '0a0a0a0a-0000-4000-8000-000000000001',
    owner_tenant_id: '0a0a0a0a-0000-4000-8000-000000000002',
    name: 'Storage',
    url: 'https://storage.example.com',
    capabilities: ['backup'],
    location_id: '0a0a0a0a-0000-4000-8000-000000000003',
    content_url: null,
    content_mobile_url: null,
    backend_type: null,
    version: 3,
    platform_owned: false,
    readonly: false,
  };
  const configOf = (s: Record<string, unknown>) => ({ ...s, id: null, version: null, platform_owned: null, readonly: null });

  test('an update plan keeps the prior computed values and makes the version unknown', async () => {
    const config = configOf({ ...prior, name: 'Renamed' });
    const r = await provider.PlanResourceChange({
      type_name: 'tenantform_infra_component',
      prior_state: msgpack(prior),
      proposed_new_state: msgpack({ ...config, id: prior.id }),
      config: msgpack(config),
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.requires_replace).toEqual([]);
    const planned = decodeMsgpack(r.planned_state.msgpack) as Record<string, unknown>;
    expect(planned).toMatchObject({ id: prior.id, name: 'Renamed', version: Unknown, platform_owned: false });
  });

  test('a change of a replacing attribute is answered with requires_replace', async () => {
    const config = configOf({ ...prior, owner_tenant_id: '0a0a0a0a-0000-4000-8000-000000000009' });
    const r = await provider.PlanResourceChange({
      type_name: 'tenantform_infra_component',
      prior_state: msgpack(prior),
      proposed_new_state: msgpack(config),
      config: msgpack(config),
    });
    expect(r.requires_replace).toEqual([{ steps: [{ attribute_name: 'owner_tenant_id', selector: 'attribute_name' }] }]);
  });

  test('a destroy plan (null proposed) plans null', async () => {
    const r = await provider.PlanResourceChange({
      type_name: 'tenantform_infra_component',
      prior_state: msgpack(prior),
      proposed_new_state: { msgpack: Buffer.from([0xc0]) },
      config: { msgpack: Buffer.from([0xc0]) },
    });
    expect(Buffer.from(r.planned_state.msgpack)).toEqual(Buffer.from([0xc0]));
  });

  test('an unknown type is a diagnostic, not a crash', async () => {
    const r = await provider.ReadDataSource({ type_name: 'tenantform_nothing', config: msgpack({}) });
    expect(r.diagnostics[0].summary).toContain('tenantform_nothing');
  });

  test('Ctrl-C is ignored (Terraform follows it with StopProvider), StopProvider answers, Shutdown ends the process', async () => {
    child.kill('SIGINT');
    expect((await provider.GetMetadata({})).server_capabilities.plan_destroy).toBe(true);
    expect(await provider.StopProvider({})).toEqual({ Error: '' });
    const exit = exited(child);
    await controller.Shutdown({});
    expect(await exit).toBe(0);
    expect(stderr).not.toMatch(/failed/);
  });
});

test('an orphaned provider (Terraform killed hard) exits by itself', async () => {
  // The shell starts the provider in the background and exits once it has printed its
  // handshake line, as a Terraform killed hard would.
  const handshakeFile = join(mkdtempSync(join(tmpdir(), 'tenantform-orphan-')), 'handshake');
  const script = '"$0" "$1" >"$2" 2>/dev/null & echo $!; while [ ! -s "$2" ]; do sleep 0.05; done';
  const shell = spawn('sh', ['-c', script, process.execPath, PROVIDER_MAIN, handshakeFile], {
    env: { ...baseEnv(), [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '6', TF_DISABLE_PLUGIN_TLS: '1' },
  });
  let out = '';
  shell.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await exited(shell);
  const pid = Number(out.trim());
  expect(pid).toBeGreaterThan(0);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  } finally {
    if (alive()) process.kill(pid, 'SIGKILL');
  }
});
