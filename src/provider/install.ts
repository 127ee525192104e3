/**
 * Puts the provider into a Terraform filesystem mirror (the unpacked layout), so that
 * `terraform init` (and `cdktf deploy`) find it without a registry:
 * `<dir>/registry.terraform.io/tenantform/tenantform/<version>/<os>_<arch>/terraform-provider-tenantform_v<version>`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { packageErrors } from '../errors';
import { packageRoot } from '../package-root';
import { PROVIDER_ADDRESS, PROVIDER_TYPE } from '../resources/provider-config';

export interface InstallOptions {
  /** The mirror directory; default `~/.terraform.d/plugins` (Terraform's implicit mirror). */
  readonly dir?: string;
  /** The node executable the launcher runs; default the one running now. */
  readonly nodePath?: string;
  /** The provider address to install as, in full (a private registry's host and namespace); default Terraform's registry's tenantform. */
  readonly address?: string;
}

export interface Installed {
  readonly mirror: string;
  readonly executable: string;
  readonly version: string;
  readonly platform: string;
}

/** The compiled entry point of the provider, in the package's dist/ (built from source, or installed). */
export function providerMainPath(): string {
  return join(packageRoot(), 'dist', 'provider', 'main.js');
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(packageJsonPath(), 'utf8')) as { version: string };
  return pkg.version;
}

function packageJsonPath(): string {
  return join(packageRoot(), 'package.json');
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

/** Where an install records, relative to the mirror, which node and package its launcher runs. */
function launchRecordName(version: string): string {
  return `.tenantform/provider-${version}.launch`;
}

/**
 * The launcher Terraform runs. It names no path of this machine, so its content (and with it
 * the h1 checksum in `.terraform.lock.hcl`) is the same for a version wherever tenantform is
 * installed. It runs the compiled provider of the package TENANTFORM_PACKAGE_DIR names, else of
 * the package the last install recorded beside the mirror, if it is still there (found from the
 * launcher's real location: Terraform links the mirror's directory into `.terraform/providers`).
 * Nothing else: a package found by searching folders would be code nobody chose to run.
 */
export function launcherScript(version: string): string {
  const entry = 'dist/provider/main.js';
  return `#!/bin/sh
# tenantform Terraform provider ${version}, written by \`tenantform provider install\`.
# No path of this machine is written here: the checksum in .terraform.lock.hcl is the same everywhere.
node=node
main=
if [ -n "$TENANTFORM_PACKAGE_DIR" ]; then
  main="$TENANTFORM_PACKAGE_DIR/${entry}"
else
  self=$(readlink -f "$0" 2>/dev/null || printf '%s' "$0")
  # The launcher sits at <mirror>/<host>/<namespace>/<type>/<version>/<platform>/<file>.
  record="\${self%/*/*/*/*/*/*}/${launchRecordName(version)}"
  if [ -f "$record" ]; then
    { read -r node; read -r main; } < "$record"
  fi
fi
if [ -z "$main" ] || [ ! -f "$main" ]; then
  echo "tenantform provider ${version}: cannot find the tenantform package (\${main:-no package recorded beside the mirror})." >&2
  # Single quotes: nothing in the hint is ever run by the shell.
  echo 'Run "npx tenantform provider install" again, or set TENANTFORM_PACKAGE_DIR to the directory of the package.' >&2
  exit 1
fi
exec "$node" "$main" "$@"
`;
}

/** Writes a file beside its target and renames it, so a Terraform running now never reads half of it. */
function writeAtomically(path: string, content: string, mode: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, path);
}

export function installProvider(opts: InstallOptions = {}): Installed {
  const mainPath = providerMainPath();
  if (!existsSync(mainPath)) throw packageErrors.providerNotBuilt(mainPath);
  const version = packageVersion();
  const platform = terraformPlatform();
  const mirror = resolve(opts.dir ?? defaultMirrorDir());
  const targetDir = join(mirror, ...(opts.address ?? PROVIDER_ADDRESS).split('/'), version, platform);
  mkdirSync(targetDir, { recursive: true });
  const record = join(mirror, launchRecordName(version));
  mkdirSync(dirname(record), { recursive: true });
  writeAtomically(record, `${opts.nodePath ?? process.execPath}\n${mainPath}\n`, 0o644);
  const executable = join(targetDir, `terraform-provider-${PROVIDER_TYPE}_v${version}`);
  writeAtomically(executable, launcherScript(version), 0o755);
  return { mirror, executable, version, platform };
}

/** A CLI configuration (for TF_CLI_CONFIG_FILE) that takes this provider from the mirror only. */
export function cliConfig(mirror: string, providerAddress: string = PROVIDER_ADDRESS): string {
  const quoted = JSON.stringify(mirror);
  const address = JSON.stringify(providerAddress);
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
