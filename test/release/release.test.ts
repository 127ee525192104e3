/**
 * The release as Terraform 1.11 installs it, from the layout `npm run release` writes, served
 * over HTTPS on loopback with a certificate of the test's own (SSL_CERT_FILE): as a registry
 * (service discovery, signed checksums, the lock file's h1: and zh: hashes; a changed package is
 * refused), as a network mirror and as a filesystem mirror. Then plan and apply through the
 * single executable against the emulator, with no Node on PATH, and the same file run as the
 * command. The executable is built once for the sources as they are (helpers.ts).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gpgSigningKey } from '../../scripts/release/gpg';
import { executableName, writeRelease, type Release, type SigningKey } from '../../scripts/release/layout';
import * as grpc from '@grpc/grpc-js';
import { startEmulator } from '../../src/emulator';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../src/provider/handshake';
import { loadProtocol } from '../../src/provider/protocol';
import { createServerIdentity, toPem } from '../../src/provider/tls';
import { packageVersion, terraformPlatform } from '../../src/provider/install';
import { PROVIDER_HCL, requireTerraform, run } from '../provider/helpers';
import { cachedExecutables, serveRelease, throwawayKeyring, type ServedRelease } from './helpers';

jest.setTimeout(180_000);

const PLATFORM = terraformPlatform();
/** The other Linux platform released beside this machine's: the lock file and the mirror hold both. */
const OTHER_PLATFORM = PLATFORM === 'linux_arm64' ? 'linux_amd64' : 'linux_arm64';
const VERSION = packageVersion();

let dir: string;
let executable: string;
let keyring: ReturnType<typeof throwawayKeyring>;
let signingKey: SigningKey;
let release: Release;
let served: ServedRelease;
let emulator: Awaited<ReturnType<typeof startEmulator>>;
/** A folder holding `terraform` only: PATH for every command here, so no `node` is found. */
let bin: string;

beforeAll(async () => {
  requireTerraform();
  dir = mkdtempSync(join(tmpdir(), 'tenantform-release-'));
  const built = await cachedExecutables([PLATFORM, OTHER_PLATFORM]);
  executable = built.get(PLATFORM)!;
  keyring = throwawayKeyring();
  signingKey = await gpgSigningKey(keyring.fingerprint, keyring.env);
  release = await writeRelease({
    out: join(dir, 'release'),
    address: { host: 'registry.terraform.io', namespace: 'tenantform', type: 'tenantform' },
    version: VERSION,
    executables: [PLATFORM, OTHER_PLATFORM].map((platform) => ({ platform, executable: readFileSync(built.get(platform)!) })),
    signingKey,
  });
  served = await serveRelease(join(dir, 'release'));
  writeFileSync(join(dir, 'ca.pem'), served.certificatePem);
  emulator = await startEmulator({ port: 0, seed: 11 });
  bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(commandPath('terraform'), join(bin, 'terraform'));
});

afterAll(async () => {
  await served?.close();
  await emulator?.close();
  keyring?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Where a command is on this process's PATH. */
function commandPath(command: string): string {
  const found = (process.env.PATH ?? '').split(':').find((folder) => folder !== '' && existsSync(join(folder, command)));
  if (found === undefined) throw new Error(`${command} is not on PATH`);
  return join(found, command);
}

/** A working directory with its own CLI configuration; Terraform runs there with no Node on PATH. */
function project(name: string, source: string, cliConfig: string): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = join(dir, name);
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'cli.tfrc'), cliConfig);
  writeFileSync(
    join(cwd, 'main.tf'),
    `${PROVIDER_HCL.replace('source = "tenantform/tenantform"', `source = "${source}"`)}
data "tenantform_tenant" "globex" {
  name = "Globex Retail"
}

resource "tenantform_infra_component" "storage" {
  owner_tenant_id = data.tenantform_tenant.globex.id
  name            = "Globex storage (${name})"
  url             = "https://storage.globex.example.com"
  capabilities    = ["backup"]
  location_id     = "11111111-2222-4333-8444-555555555555"
}
`,
  );
  return {
    cwd,
    env: {
      PATH: bin,
      HOME: join(cwd, 'home'),
      TF_CLI_CONFIG_FILE: join(cwd, 'cli.tfrc'),
      SSL_CERT_FILE: join(dir, 'ca.pem'),
      TF_IN_AUTOMATION: '1',
      CHECKPOINT_DISABLE: '1',
      TENANTFORM_BASE_URL: emulator.url,
      TENANTFORM_CLIENT_ID: emulator.clientId,
      TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
    },
  };
}

const terraform = (p: { cwd: string; env: NodeJS.ProcessEnv }, ...args: string[]) => run('terraform', args, p);

function lockHashes(cwd: string): string[] {
  return [...readFileSync(join(cwd, '.terraform.lock.hcl'), 'utf8').matchAll(/"((?:h1|zh):[^"]+)"/g)].map((m) => m[1]);
}

const DIRECT = 'provider_installation {\n  direct {}\n}\n';

describe('the release layout', () => {
  test('as a registry: terraform init checks the signature and records h1: and zh:; plan and apply run the single executable without Node', async () => {
    const p = project('registry', `${served.host}/tenantform/tenantform`, DIRECT);
    const init = await terraform(p, 'init', '-input=false', '-no-color');
    expect(init.output).toContain(`Installed ${served.host}/tenantform/tenantform v${VERSION}`);
    expect(init.output).toContain(`key ID ${signingKey.keyId}`);
    expect(init.code).toBe(0);
    const [pkg] = release.packages;
    expect(served.requests).toContain('/.well-known/terraform.json');
    // h1: of the package installed here; zh: of every package the signed checksums list.
    expect(lockHashes(p.cwd).sort()).toEqual([pkg.h1, ...release.packages.map((each) => `zh:${each.shasum}`)].sort());
    const installed = join(
      p.cwd,
      '.terraform',
      'providers',
      served.host,
      'tenantform',
      'tenantform',
      VERSION,
      PLATFORM,
      executableName('tenantform', VERSION, PLATFORM),
    );
    expect(readFileSync(installed).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));

    const apply = await terraform(p, 'apply', '-auto-approve', '-input=false', '-no-color');
    expect(apply.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(apply.code).toBe(0);
    const again = await terraform(p, 'plan', '-detailed-exitcode', '-input=false', '-no-color');
    expect(again.output).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  test('a package changed after signing is refused: by its checksum, and with checksums made anew, by the signature', async () => {
    const [pkg] = release.packages;
    const zipPath = `/${release.packagesDir}/${pkg.filename}`;
    const changed = Buffer.from(readFileSync(join(dir, 'release', release.packagesDir, pkg.filename)));
    changed[changed.length >> 1] ^= 0xff;
    served.replaced.set(zipPath, changed);
    try {
      const p = project('changed', `${served.host}/tenantform/tenantform`, DIRECT);
      const init = await terraform(p, 'init', '-input=false', '-no-color');
      expect(init.code).not.toBe(0);
      expect(init.output).toMatch(/checksum/i);

      // The registry's document and the checksums both made anew for the changed package: only the signature is left.
      const shasum = createHash('sha256').update(changed).digest('hex');
      served.replaced.set(`/${release.packagesDir}/${release.shasumsFile}`, Buffer.from(`${shasum}  ${pkg.filename}\n`));
      const download = `/v1/providers/tenantform/tenantform/${VERSION}/download/${PLATFORM.replace('_', '/')}`;
      const document = JSON.parse(readFileSync(join(dir, 'release', download), 'utf8')) as Record<string, unknown>;
      served.replaced.set(download, Buffer.from(JSON.stringify({ ...document, shasum })));
      const resummed = project('resummed', `${served.host}/tenantform/tenantform`, DIRECT);
      const second = await terraform(resummed, 'init', '-input=false', '-no-color');
      expect(second.code).not.toBe(0);
      expect(second.output).toMatch(/signature/i);
    } finally {
      served.replaced.clear();
    }
  });

  test('terraform providers lock records h1: and zh: of every released platform, and providers mirror copies each package', async () => {
    const p = project('lock-platforms', `${served.host}/tenantform/tenantform`, DIRECT);
    const lock = await terraform(p, 'providers', 'lock', `-platform=${PLATFORM}`, `-platform=${OTHER_PLATFORM}`, '-no-color');
    expect(lock.output).toContain(`Obtained ${served.host}/tenantform/tenantform checksums for ${OTHER_PLATFORM}`);
    expect(lock.code).toBe(0);
    expect(release.packages.map((pkg) => pkg.filename).sort()).toEqual(
      [PLATFORM, OTHER_PLATFORM].map((platform) => `terraform-provider-tenantform_${VERSION}_${platform}.zip`).sort(),
    );
    // Every package's own h1: (Terraform unzips each to hash it) and every zh: the signed checksums list.
    expect(lockHashes(p.cwd).sort()).toEqual(release.packages.flatMap((pkg) => [pkg.h1, `zh:${pkg.shasum}`]).sort());

    const mirrorDir = join(p.cwd, 'mirror');
    const mirror = await terraform(p, 'providers', 'mirror', `-platform=${PLATFORM}`, `-platform=${OTHER_PLATFORM}`, mirrorDir);
    expect(mirror.code).toBe(0);
    for (const pkg of release.packages) {
      const copied = join(mirrorDir, served.host, 'tenantform', 'tenantform', pkg.filename);
      expect(createHash('sha256').update(readFileSync(copied)).digest('hex')).toBe(pkg.shasum);
    }
  });

  test('as a network mirror', async () => {
    const p = project('network-mirror', 'tenantform/tenantform', `provider_installation {\n  network_mirror {\n    url = "${served.url}"\n  }\n}\n`);
    const init = await terraform(p, 'init', '-input=false', '-no-color');
    expect(init.code).toBe(0);
    expect(init.output).toContain(`Installed tenantform/tenantform v${VERSION}`);
    expect(lockHashes(p.cwd)).toContain(release.packages[0].h1);
  });

  test('as a filesystem mirror (packed layout), for machines without a network', async () => {
    const p = project(
      'filesystem-mirror',
      'tenantform/tenantform',
      `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(join(dir, 'release'))}\n  }\n}\n`,
    );
    const init = await terraform(p, 'init', '-input=false', '-no-color');
    expect(init.code).toBe(0);
    expect(init.output).toContain(`Installed tenantform/tenantform v${VERSION}`);
    expect(lockHashes(p.cwd)).toContain(release.packages[0].h1);
    const plan = await terraform(p, 'plan', '-input=false', '-no-color');
    expect(plan.output).toContain('# tenantform_infra_component.storage will be created');
    expect(plan.code).toBe(0);
  });
});

describe('the single executable as the command', () => {
  test('tenantform plan reads HCL (the converter is an asset of the executable), with no Node on PATH; provider install points to the release', async () => {
    const p = project('command', 'tenantform/tenantform', DIRECT);
    const version = await run(executable, ['version'], p);
    expect(version.stdout).toContain(`tenantform v${VERSION}`);
    // A local state is locked against Terraform through Perl (fcntl); this machine-less PATH has none.
    const plan = await run(executable, ['plan', '--detailed-exitcode'], { cwd: p.cwd, env: { ...p.env, TENANTFORM_LOCAL_LOCK: 'tenantform-only' } });
    expect(plan.output).toContain('tenantform_infra_component.storage');
    expect(plan.code).toBe(2);
    // No package folder to point a launcher at: the release is the executable's mirror.
    const install = await run(executable, ['provider', 'install', '--dir', join(p.cwd, 'mirror')], p);
    expect(install.stderr).toContain('Terraform installs it as its provider from the release itself');
    expect(install.code).toBe(1);
    expect(existsSync(join(p.cwd, 'mirror'))).toBe(false);
  });

  test('a failure inside the provider is logged with the TypeScript sources of its stack', async () => {
    const client = createServerIdentity();
    const child = spawn(executable, [], {
      env: { PATH: bin, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '6', PLUGIN_CLIENT_CERT: client.certificatePem },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (c: Buffer) => resolve(c.toString().trim())));
    const [, , , address, , certificate] = line.split('|');
    const credentials = grpc.credentials.createSsl(
      Buffer.from(toPem('CERTIFICATE', Buffer.from(certificate, 'base64'))),
      Buffer.from(client.privateKeyPem),
      Buffer.from(client.certificatePem),
    );
    const options = { 'grpc.ssl_target_name_override': 'localhost', 'grpc.default_authority': 'localhost' };
    const pkg = grpc.loadPackageDefinition(loadProtocol()) as any;
    const stub: grpc.Client & Record<string, unknown> = new pkg.tfplugin6.Provider(address, credentials, options);
    const controller: grpc.Client & Record<string, unknown> = new pkg.plugin.GRPCController(address, credentials, options);
    const call = (client: grpc.Client & Record<string, unknown>, method: string, request: object) =>
      new Promise<Record<string, any>>((resolve, reject) =>
        (client[method] as (r: object, cb: (e: Error | null, v: Record<string, any>) => void) => void).call(client, request, (e, v) =>
          e ? reject(e) : resolve(v),
        ),
      );
    // 0xc1 is the one byte msgpack never uses.
    const answer = await call(stub, 'ConfigureProvider', { config: { msgpack: Buffer.from([0xc1]) } });
    expect(answer.diagnostics[0].detail).toContain('Unrecognized type byte');
    await call(controller, 'Shutdown', {});
    await exited;
    stub.close();
    controller.close();
    expect(stderr).toMatch(/at decodeMsgpack \(src\/provider\/values\.ts:\d+:\d+\)/);
    expect(stderr).toMatch(/at configureProvider \(src\/provider\/server\.ts:\d+:\d+\)/);
  });
});
