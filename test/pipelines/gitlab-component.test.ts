/**
 * The GitLab component's script (pipelines/gitlab/tenantform.mjs), run as its jobs run it: node in
 * the project's folder, with GitLab's CI variables and the component's inputs as INPUT_*, against
 * the emulator and a stand-in of GitLab's merge request notes API on loopback.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, renameInfraByHand, startWorld, writeConfig, type World } from '../cli/helpers';
import { inputVariables, installAsDevDependency, PIPELINES, runScript, startApi, type Api } from './helpers';

const SCRIPT = join(PIPELINES, 'gitlab', 'tenantform.mjs');
const NOTE_TOKEN = 'glpat-secret-token-value';
const NOTES = '/api/v4/projects/42/merge_requests/7/notes';
const STACK_FILE = 'platform.tf.json';

interface Note {
  id: number;
  body: string;
}

/** GitLab's notes endpoints as far as the script uses them: list (paged), create, update. */
function startGitLab(notes: Note[], refuse = false): Promise<Api> {
  return startApi(({ method, url, headers, body }) => {
    if (refuse || headers['private-token'] !== NOTE_TOKEN) return [refuse ? 403 : 401, { message: '403 Forbidden' }];
    if (method === 'GET' && url.pathname === NOTES) {
      const perPage = Number(url.searchParams.get('per_page'));
      const page = Number(url.searchParams.get('page'));
      return [200, notes.slice((page - 1) * perPage, page * perPage)];
    }
    if (method === 'POST' && url.pathname === NOTES) {
      const note = { id: 1000 + notes.length, body: body.body as string };
      notes.push(note);
      return [201, note];
    }
    const existing = notes.find((n) => url.pathname === `${NOTES}/${n.id}`);
    if (method === 'PUT' && existing) {
      existing.body = body.body;
      return [200, existing];
    }
    return [404, { message: '404 Not Found' }];
  });
}

let world: World;
beforeAll(async () => {
  world = await startWorld();
  installAsDevDependency(world.dir);
});
afterAll(() => world?.close());

async function job(command: string, gitlab: Api | undefined, inputs: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    CI: 'true',
    GITLAB_CI: 'true',
    CI_API_V4_URL: `${gitlab?.url ?? 'http://127.0.0.1:1'}/api/v4`,
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: '7',
    CI_JOB_URL: 'https://gitlab.example/acme/platform/-/jobs/99',
    CI_JOB_TOKEN: 'job-token-value',
    // Masked CI/CD variables of the project, named by the component's inputs.
    ACME_BASE_URL: world.emulator.url,
    ACME_CLIENT_ID: world.emulator.clientId,
    ACME_CLIENT_SECRET: world.emulator.clientSecret,
    PLAN_NOTE_TOKEN: NOTE_TOKEN,
    INPUT_CONFIG: STACK_FILE,
    INPUT_STACK: 'platform',
    INPUT_BASE_URL_VARIABLE: 'ACME_BASE_URL',
    INPUT_CLIENT_ID_VARIABLE: 'ACME_CLIENT_ID',
    INPUT_CLIENT_SECRET_VARIABLE: 'ACME_CLIENT_SECRET',
    ...inputVariables(inputs),
  };
  const result = await runScript(SCRIPT, [command], { cwd: world.dir, env });
  expect(result.output).not.toContain(world.emulator.clientSecret);
  expect(result.output).not.toContain(NOTE_TOKEN);
  return result;
}

const stack = (components: Record<string, Record<string, unknown>>) => writeConfig(world, configWith({ tenantform_infra_component: components }), STACK_FILE);
const marker = '<!-- tenantform-plan stack=platform -->';

describe('plan in a merge request pipeline', () => {
  it('posts the plan once, then updates that note on later pushes, past the first page of notes', async () => {
    // 120 notes of reviewers first: the plan's own note lands on the second page.
    const notes: Note[] = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: `review ${i + 1}` }));
    const gitlab = await startGitLab(notes);
    try {
      stack({ site_a: infra('Site A') });
      expect((await job('plan', gitlab)).code).toBe(0);
      stack({ site_a: infra('Site A'), site_b: infra('Site B') });
      expect((await job('plan', gitlab)).code).toBe(0);
      const ours = notes.filter((n) => n.body.startsWith(marker));
      expect(ours).toHaveLength(1);
      expect(ours[0].body).toContain('**Plan:** 2 to add, 0 to change, 0 to destroy.');
      expect(readFileSync(join(world.dir, 'plan.md'), 'utf8')).toContain('**Plan:** 2 to add');

      writeFileSync(join(world.dir, STACK_FILE), '{ "resource": ');
      expect((await job('plan', gitlab)).code).toBe(1);
      expect(ours[0].body).toContain('tenantform plan failed');
      expect(ours[0].body).toContain('https://gitlab.example/acme/platform/-/jobs/99');
      expect(notes).toHaveLength(121);
    } finally {
      await gitlab.close();
    }
  });

  it('a refused request fails the job without printing the token', async () => {
    const gitlab = await startGitLab([], true);
    try {
      stack({ site_a: infra('Site A') });
      const result = await job('plan', gitlab);
      expect(result.code).toBe(1);
      expect(result.output).toContain(`GET ${NOTES} answered 403`);
    } finally {
      await gitlab.close();
    }
  });
});

describe('apply on the default branch, then the scheduled drift check', () => {
  it('applies, finds no drift, then lists the object changed by hand and fails the job', async () => {
    stack({ site_a: infra('Site A'), site_b: infra('Site B') });
    const apply = await job('apply', undefined);
    expect(apply.code).toBe(0);
    expect(apply.output).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');

    const inSync = await job('drift', undefined);
    expect(inSync.code).toBe(0);
    expect(inSync.output).toContain('No drift: the platform matches the configuration.');

    const state = JSON.parse(readFileSync(join(world.dir, 'terraform.platform.tfstate'), 'utf8'));
    const siteB = state.resources.find((r: any) => r.name === 'site_b').instances[0].attributes.id as string;
    await renameInfraByHand(world.client, siteB, 'Site B (renamed by hand)');
    const drift = await job('drift', undefined);
    expect(drift.code).toBe(1);
    expect(drift.output).toContain('Drift in stack platform: objects changed outside tenantform (drift.json lists them).');
    expect(drift.output).toContain('- tenantform_infra_component.site_b: drifted\n');
    expect(drift.output).not.toContain('site_a:');
    expect(JSON.parse(readFileSync(join(world.dir, 'drift.json'), 'utf8')).stack).toBe('platform');

    expect((await job('drift', undefined, { 'fail-on-drift': 'false' })).code).toBe(0);
  });

  it('a drift check that cannot run says nothing was judged', async () => {
    const drift = await job('drift', undefined, { 'client-secret-variable': 'NO_SUCH_VARIABLE' });
    expect(drift.code).toBe(1);
    expect(drift.output).toContain('Nothing was judged.');
  });
});
