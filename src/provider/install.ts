/**
 * Puts the provider into a Terraform filesystem mirror (the unpacked layout), so that
 * `terraform init` (and `cdktf deploy`) find it without a registry:
 * `<dir>/registry.terraform.io/tenantform/tenantform/<version>/<os>_<arch>/terraform-provider-tenantform_v<version>`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROVIDER_ADDRESS, PROVIDER_TYPE } from '../resources/provider-config';

export interface InstallOptions {
  /** The mirror directory; default `~/.terraform.d/plugins` (Terraform's implicit mirror). */
  readonly dir?: string;
  /** The node executable the launcher runs; default the one running now. */
  readonly nodePath?: string;
}

export interface Installed {
  readonly mirror: string;
  readonly executable: string;
  readonly version: string;
  readonly platform: string;
}

/** The compiled entry point: beside this file once built, in dist/ when this runs from source. */
export function providerMainPath(): string {
  return __filename.endsWith('.ts') ? resolve(__dirname, '..', '..', 'dist', 'provider', 'main.js') : join(__dirname, 'main.js');
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(packageJsonPath(), 'utf8')) as { version: string };
  return pkg.version;
}

function packageJsonPath(): string {
  // src/provider or dist/provider: the package root is two levels up.
  return resolve(__dirname, '..', '..', 'package.json');
}

/** Terraform's names for this machine: linux_amd64, darwin_arm64, ... */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string {
  const os = platform === 'win32' ? 'windows' : platform;
  const cpu = ({ x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' } as Record<string, string>)[arch] ?? arch;
  return `${os}_${cpu}`;
}

export function defaultMirrorDir(): string {
  return join(homedir(), '.terraform.d', 'plugins');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The launcher Terraform runs: node on the compiled provider, both by absolute path. */
export function launcherScript(nodePath: string, mainPath: string): string {
  return ['#!/bin/sh', '# tenantform Terraform provider (written by `tenantform provider install`).', `exec ${shellQuote(nodePath)} ${shellQuote(mainPath)} "$@"`, ''].join('\n');
}

export function installProvider(opts: InstallOptions = {}): Installed {
  const mainPath = providerMainPath();
  if (!existsSync(mainPath)) {
    throw new Error(`The compiled provider is missing (${mainPath}); run \`npm run build\` first.`);
  }
  const version = packageVersion();
  const platform = terraformPlatform();
  const mirror = resolve(opts.dir ?? defaultMirrorDir());
  const targetDir = join(mirror, ...PROVIDER_ADDRESS.split('/'), version, platform);
  mkdirSync(targetDir, { recursive: true });
  const executable = join(targetDir, `terraform-provider-${PROVIDER_TYPE}_v${version}`);
  // Written beside and renamed, so a Terraform running now never sees half a script.
  const temporary = `${executable}.${process.pid}.tmp`;
  writeFileSync(temporary, launcherScript(opts.nodePath ?? process.execPath, mainPath), { mode: 0o755 });
  chmodSync(temporary, 0o755);
  renameSync(temporary, executable);
  return { mirror, executable, version, platform };
}

/** A CLI configuration (for TF_CLI_CONFIG_FILE) that takes this provider from the mirror only. */
export function cliConfig(mirror: string): string {
  const quoted = JSON.stringify(mirror);
  const address = JSON.stringify(PROVIDER_ADDRESS);
  return [
    'provider_installation {',
    '  filesystem_mirror {',
    `    path    = ${quoted}`,
    `    include = [${address}]`,
    '  }',
    '  direct {',
    `    exclude = [${address}]`,
    '  }',
    '}',
    '',
  ].join('\n');
}
