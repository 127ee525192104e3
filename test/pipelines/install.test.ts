/**
 * The install step of the action and the component: a tenantform version fetched from a release
 * layout (as `npm run release` writes it: the zip per platform and SHA256SUMS) served on loopback,
 * checked, unpacked into the tool folder the CI caches, and run by the next step; a folder
 * restored from the cache fetches nothing, and a package that does not match its sum is refused.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { zip } from '../../scripts/release/zip';
import { CLI, configWith, infra, startWorld, writeConfig, type World } from '../cli/helpers';
import { startGitHub, type FakeGitHub } from './fake-github';
import { runActionStep } from './github-runner';
import { inputVariables, PIPELINES, runScript, startApi, type Api } from './helpers';

const VERSION = '9.9.9';
const PLATFORM = 'linux_amd64';
const ZIP = `terraform-provider-tenantform_${VERSION}_${PLATFORM}.zip`;

/** The release's executable, standing for the single executable: the command built from these sources. */
const executable = Buffer.from(`#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);

let world: World;
let github: FakeGitHub;
let release: Api;
let tampered = false;

beforeAll(async () => {
  const archive = zip([{ name: `terraform-provider-tenantform_v${VERSION}`, data: executable, mode: 0o755 }]);
  const sums = `${createHash('sha256').update(archive).digest('hex')}  ${ZIP}\n`;
  [world, github, release] = await Promise.all([
    startWorld(),
    startGitHub(),
    startApi(({ url }) => {
      if (url.pathname === `/tenantform/${ZIP}`) return [200, tampered ? Buffer.concat([archive, Buffer.from([0])]) : archive];
      if (url.pathname === `/tenantform/terraform-provider-tenantform_${VERSION}_SHA256SUMS`) return [200, Buffer.from(sums)];
      return [404, Buffer.from('not found')];
    }),
  ]);
  writeConfig(world, configWith({ tenantform_infra_component: { site_a: infra('Site A') } }), 'platform.tf.json');
});
afterAll(async () => {
  await Promise.all([release?.close(), github?.close()]);
  await world?.close();
});

const toolDir = () => join(world.dir, 'tool-cache');
const installInputs = () => ({ 'tenantform-version': VERSION, 'release-url': `${release.url}/tenantform/`, 'tool-dir': toolDir() });
const jobEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' });

test('the action installs the version from the release and the next step runs it', async () => {
  const install = await runActionStep('install', { cwd: world.dir, github, env: jobEnv(), inputs: installInputs() });
  expect(install.code).toBe(0);
  expect(install.output).toContain(`tenantform ${VERSION} installed in ${join(toolDir(), VERSION, 'tenantform')}.`);
  expect([...release.requests].sort()).toEqual([`GET /tenantform/${ZIP}`, `GET /tenantform/terraform-provider-tenantform_${VERSION}_SHA256SUMS`].sort());

  // A cache hit restores the folder: nothing is fetched.
  const restored = await runActionStep('install', { cwd: world.dir, github, env: jobEnv(), inputs: installInputs() });
  expect(restored.output).toContain(`tenantform ${VERSION} restored from the cache.`);
  expect(release.requests).toHaveLength(2);

  const inputs = {
    ...installInputs(),
    config: 'platform.tf.json',
    'base-url': world.emulator.url,
    'client-id': world.emulator.clientId,
    'client-secret': world.emulator.clientSecret,
  };
  const apply = await runActionStep('apply', { cwd: world.dir, github, env: jobEnv(), inputs });
  expect(apply.code).toBe(0);
  expect(apply.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
});

test('the component refuses a package that does not match the release’s sums, and installs nothing', async () => {
  tampered = true;
  try {
    const env = { ...jobEnv(), ...inputVariables({ ...installInputs(), 'tool-dir': join(world.dir, 'gitlab-tool'), platform: PLATFORM }) };
    const install = await runScript(join(PIPELINES, 'gitlab', 'tenantform.mjs'), ['install'], { cwd: world.dir, env });
    expect(install.code).toBe(1);
    expect(install.output).toContain(`${ZIP} does not match the release's SHA256SUMS.`);
    expect(existsSync(join(world.dir, 'gitlab-tool', VERSION))).toBe(false);
  } finally {
    tampered = false;
  }
});
