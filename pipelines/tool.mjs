// What the GitHub Action and the GitLab component share: their inputs, the tenantform command a
// job runs (the project's own, or a release installed into a tool folder that the CI caches),
// and running it with the credentials in its environment only.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/** An input of the job, as the action or the component hands it over: `INPUT_<NAME>`. */
export function input(name, fallback = '') {
  const value = process.env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`]?.trim();
  return value ? value : fallback;
}

/** `NAME=value` lines (the variables the stack's backend reads, e.g. STATE_DB_URL), as an environment. */
export function parseEnvLines(text) {
  const env = {};
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    if (at < 1) throw new Error(`backend-config: "${line.slice(0, 40)}" is not NAME=value.`);
    env[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return env;
}

/**
 * The environment tenantform runs with: the data center and the API client, the backend's
 * variables, and the backend's password as both the pg backend (PGPASSWORD) and the http backend
 * (TF_HTTP_PASSWORD) read it. Empty credentials are left to what the environment already holds.
 */
export function toolEnv({ baseUrl, clientId, clientSecret, backendConfig, backendPassword }) {
  const env = { ...process.env, CHECKPOINT_DISABLE: '1', ...parseEnvLines(backendConfig ?? '') };
  if (baseUrl) env.TENANTFORM_BASE_URL = baseUrl;
  if (clientId) env.TENANTFORM_CLIENT_ID = clientId;
  if (clientSecret) env.TENANTFORM_CLIENT_SECRET = clientSecret;
  if (backendPassword) env.PGPASSWORD = env.TF_HTTP_PASSWORD = backendPassword;
  // The scripts' own inputs and tokens stay out of the command's environment.
  for (const name of Object.keys(env)) if (name.startsWith('INPUT_') || name === 'GITHUB_TOKEN' || name === 'PLAN_NOTE_TOKEN') delete env[name];
  return env;
}

/** Terraform's name of this machine's platform, as the release names its zips: linux_amd64. */
export function releasePlatform() {
  const cpu = { x64: 'amd64', arm64: 'arm64' }[arch()] ?? arch();
  return `${platform()}_${cpu}`;
}

/** The executable a release installs into `toolDir` for `version`. */
export const installedTool = (toolDir, version) => join(toolDir, version, 'tenantform');

/**
 * The command to run: the installed release where a version was asked for, else the project's
 * own (`node_modules/.bin/tenantform`, its devDependency, found from `cwd` upwards as npx does).
 */
export function toolCommand({ cwd, toolDir, version }) {
  if (version) {
    const installed = installedTool(toolDir, version);
    if (!existsSync(installed)) throw new Error(`tenantform ${version} is not installed in ${toolDir}: run the install step first.`);
    return installed;
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules', '.bin', 'tenantform');
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir) break;
  }
  throw new Error(`No tenantform in ${cwd}: add it to the project's devDependencies (and install them first), or set tenantform-version.`);
}

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** The one file of a release zip (deflated or stored), as the release writes it. */
function unzipOnly(archive) {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('The release package is not a zip archive.');
  const central = archive.readUInt32LE(end + 16);
  const method = archive.readUInt16LE(central + 10);
  const compressed = archive.readUInt32LE(central + 20);
  const size = archive.readUInt32LE(central + 24);
  const local = archive.readUInt32LE(central + 42);
  const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
  const data = archive.subarray(start, start + compressed);
  const file = method === 8 ? inflateRawSync(data) : data;
  if (file.length !== size) throw new Error('The release package is damaged.');
  return file;
}

/**
 * Installs the single executable of `version` from a release layout (`npm run release`'s
 * folder, served by the team's registry or mirror), checked against its SHA256SUMS. A tool
 * folder restored from the CI's cache already holds it, and nothing is fetched.
 */
export async function installRelease({ releaseUrl, version, toolDir, target = releasePlatform() }) {
  const installed = installedTool(toolDir, version);
  if (existsSync(installed)) return { installed, fetched: false };
  if (!releaseUrl) throw new Error('release-url is needed to install a tenantform version.');
  const base = releaseUrl.endsWith('/') ? releaseUrl : `${releaseUrl}/`;
  const zipName = `terraform-provider-tenantform_${version}_${target}.zip`;
  const [archive, sums] = await Promise.all([download(new URL(zipName, base)), download(new URL(`terraform-provider-tenantform_${version}_SHA256SUMS`, base))]);
  const expected = sums
    .toString('utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find(([, name]) => name === zipName)?.[0];
  const actual = createHash('sha256').update(archive).digest('hex');
  if (!expected) throw new Error(`The release's SHA256SUMS does not list ${zipName}.`);
  if (expected !== actual) throw new Error(`${zipName} does not match the release's SHA256SUMS.`);
  mkdirSync(dirname(installed), { recursive: true });
  writeFileSync(`${installed}.partial`, unzipOnly(archive), { mode: 0o755 });
  chmodSync(`${installed}.partial`, 0o755);
  renameSync(`${installed}.partial`, installed);
  return { installed, fetched: true };
}

/** Runs the command with stderr shown in the log and stdout to a file (or shown); resolves to its exit code. */
export function runTool(command, args, { cwd, env, stdoutFile }) {
  const out = stdoutFile ? openSync(stdoutFile, 'w') : 'inherit';
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', out, 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => {
      if (typeof out === 'number') closeSync(out);
      resolvePromise(code ?? 1);
    });
  });
}

/** The arguments that choose what to read: the stack, or a folder or file of configuration. */
export function workspaceArgs({ stack, config, synth }) {
  return [...(stack ? [`-stack=${stack}`] : []), ...(config ? [`-config=${config}`] : []), ...(synth ? ['-synth'] : [])];
}

/** Runs the command named by the first argument; its result is the exit code, a failure is reported and exits 1. */
export async function runCommand(commands, report) {
  const command = commands[process.argv[2]];
  if (!command) {
    console.error(`Usage: tenantform.mjs ${Object.keys(commands).join('|')}`);
    process.exitCode = 1;
    return;
  }
  try {
    process.exitCode = (await command()) ?? 0;
  } catch (error) {
    report(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
