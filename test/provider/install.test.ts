import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cliConfig, installProvider, packageVersion, terraformPlatform } from '../../src/provider/install';
import { ensureBuilt, ROOT } from './helpers';

/** Runs the launcher as Terraform would (no handshake cookie): the provider explains itself. */
function launch(executable: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
  return spawnSync(executable, [], { cwd, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
}
const PROVIDER_SPOKE = /This is the tenantform Terraform provider/;

describe('provider install', () => {
  let dir: string;

  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'tenantform-install-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("Terraform's platform names", () => {
    expect(terraformPlatform('linux', 'x64')).toBe('linux_amd64');
    expect(terraformPlatform('darwin', 'arm64')).toBe('darwin_arm64');
    expect(terraformPlatform('win32', 'x64')).toBe('windows_amd64');
  });

  test('writes an executable launcher in the unpacked mirror layout, named with the package version', () => {
    const installed = installProvider({ dir: join(dir, 'layout') });
    const version = packageVersion();
    expect(installed.executable).toBe(
      join(dir, 'layout', 'registry.terraform.io', 'tenantform', 'tenantform', version, terraformPlatform(), `terraform-provider-tenantform_v${version}`),
    );
    expect(statSync(installed.executable).mode & 0o111).toBe(0o111);
    expect(readFileSync(installed.executable, 'utf8').startsWith('#!/bin/sh\n')).toBe(true);
  });

  test('the launcher is the same wherever the package and the mirror are, and names no path of this machine', () => {
    const first = installProvider({ dir: join(dir, 'first mirror'), nodePath: '/opt/node/bin/node' });
    const second = installProvider({ dir: join(dir, 'second'), nodePath: process.execPath });
    const script = readFileSync(first.executable, 'utf8');
    expect(readFileSync(second.executable, 'utf8')).toBe(script);
    // Nor the platform: a lock file recorded on one operating system matches the install on another.
    for (const text of [ROOT, dir, process.execPath, '/opt/node', first.platform]) expect(script).not.toContain(text);
  });

  test('run through a linked directory, as Terraform links the mirror into .terraform/providers, it starts this package', () => {
    const installed = installProvider({ dir: join(dir, 'linked') });
    const providers = join(dir, 'project', '.terraform', 'providers', 'registry.terraform.io', 'tenantform', 'tenantform', installed.version);
    mkdirSync(providers, { recursive: true });
    symlinkSync(dirname(installed.executable), join(providers, installed.platform));
    const r = launch(join(providers, installed.platform, `terraform-provider-tenantform_v${installed.version}`), join(dir, 'project'));
    expect(r.stderr).toMatch(PROVIDER_SPOKE);
    expect(r.status).toBe(1);
  });

  test('a copied launcher runs no package it finds in node_modules: only the recorded one, or the one named', () => {
    const installed = installProvider({ dir: join(dir, 'copied') });
    const project = join(dir, 'app');
    const packageDir = join(project, 'node_modules', 'tenantform', 'dist', 'provider');
    mkdirSync(packageDir, { recursive: true });
    const ran = join(dir, 'node-modules-package-ran');
    writeFileSync(join(packageDir, 'main.js'), `require('fs').writeFileSync(${JSON.stringify(ran)}, 'ran');\n`);
    const stackDir = join(project, 'cdktf.out', 'stacks', 'web');
    mkdirSync(stackDir, { recursive: true });
    const copy = join(dir, 'copy-of-launcher');
    copyFileSync(installed.executable, copy);
    const r = launch(copy, stackDir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cannot find the tenantform package');
    expect(existsSync(ran)).toBe(false);
  });

  test('TENANTFORM_PACKAGE_DIR names the package to run', () => {
    const installed = installProvider({ dir: join(dir, 'by-variable') });
    const copy = join(dir, 'launcher-by-variable');
    copyFileSync(installed.executable, copy);
    expect(launch(copy, dir, { TENANTFORM_PACKAGE_DIR: ROOT }).stderr).toMatch(PROVIDER_SPOKE);
  });

  test('without a package to run, it says how to fix that, and runs nothing it names', () => {
    const installed = installProvider({ dir: join(dir, 'orphan') });
    const copy = join(dir, 'launcher-alone');
    copyFileSync(installed.executable, copy);
    // A stand-in npx first on PATH records whether the launcher ran it.
    const bin = join(dir, 'stand-in-bin');
    mkdirSync(bin, { recursive: true });
    const ran = join(dir, 'npx-ran');
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\ntouch '${ran}'\n`, { mode: 0o755 });
    const r = launch(copy, dir, { PATH: `${bin}:${process.env.PATH}` });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cannot find the tenantform package');
    expect(r.stderr).toContain('Run "npx tenantform provider install" again');
    expect(r.stderr).toContain('TENANTFORM_PACKAGE_DIR');
    expect(existsSync(ran)).toBe(false);
  });

  test('the CLI configuration takes our provider from the mirror and nothing else from it', () => {
    const text = cliConfig('/mirror dir');
    expect(text).toContain('filesystem_mirror {');
    expect(text).toContain('path    = "/mirror dir"');
    expect(text).toContain('include = ["registry.terraform.io/tenantform/tenantform"]');
    expect(text).toMatch(/direct \{\s+exclude = \["registry\.terraform\.io\/tenantform\/tenantform"\]\s+\}/);
  });
});
