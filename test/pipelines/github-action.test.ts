/**
 * The GitHub Action's script (pipelines/github/tenantform.mjs), run as its steps run it: node in
 * the job's folder, with the variables a runner sets and the action's inputs as INPUT_*, against
 * the emulator and a stand-in of GitHub's REST API on loopback. A pull request's plan, the
 * merge's apply, and the nightly drift check with its issue.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, renameInfraByHand, startWorld, writeConfig, type World } from '../cli/helpers';
import { GITHUB_TOKEN, openPullRequest, REPOSITORY, startGitHub, type FakeGitHub } from './fake-github';
import { runActionStep } from './github-runner';
import { installAsDevDependency } from './helpers';

const STACK_FILE = 'platform.tf.json';

let world: World;
let github: FakeGitHub;

beforeAll(async () => {
  [world, github] = await Promise.all([startWorld(), startGitHub()]);
  installAsDevDependency(world.dir);
});
afterAll(async () => {
  await github?.close();
  await world?.close();
});

const stack = (components: Record<string, Record<string, unknown>>) =>
  writeConfig(world, configWith(Object.keys(components).length ? { tenantform_infra_component: components } : {}), STACK_FILE);

/** One step of the action; the credentials reach it as the action's inputs only, never from the job's environment. */
async function step(command: string, inputs: Record<string, string> = {}, event: unknown = {}) {
  const all = {
    config: STACK_FILE,
    'base-url': world.emulator.url,
    'client-id': world.emulator.clientId,
    'client-secret': world.emulator.clientSecret,
    ...inputs,
  };
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
  const result = await runActionStep(command, { cwd: world.dir, github, env, inputs: all, event });
  // Masked before anything else is printed, and never printed otherwise.
  const lines = result.output.split('\n');
  expect(lines[0]).toBe(`::add-mask::${all['client-secret']}`);
  expect(lines.slice(1).join('\n')).not.toContain(all['client-secret']);
  expect(result.output).not.toContain(GITHUB_TOKEN);
  return result;
}

const planMarker = '<!-- tenantform-plan stack=platform part=1 -->';

describe('plan on a pull request', () => {
  let pr: number;
  const ours = () => github.issues.get(pr)!.comments.filter((c) => c.body.includes('<!-- tenantform-plan '));
  beforeAll(() => {
    // 120 comments of reviewers first: the plan's own lands past the first page.
    pr = openPullRequest(github, 120);
  });

  it('posts the plan as one comment, and the job summary shows it', async () => {
    stack({ site_a: infra('Site A') });
    const plan = await step('plan', {}, { pull_request: { number: pr } });
    expect(plan.code).toBe(0);
    expect(plan.outputs.exitcode).toBe('2');
    expect(ours()).toHaveLength(1);
    expect(ours()[0].body.startsWith(planMarker)).toBe(true);
    expect(ours()[0].body).toContain('**Plan:** 1 to add, 0 to change, 0 to destroy.');
    expect(ours()[0].body).toContain(`https://github.example/${REPOSITORY}/actions/runs/4711`);
    expect(plan.outputs['comment-url']).toBe(ours()[0].html_url);
    expect(plan.summary).toContain('**Plan:** 1 to add');
  });

  it('updates that same comment on the next push', async () => {
    const [first] = ours();
    stack({ site_a: infra('Site A'), site_b: infra('Site B') });
    const plan = await step('plan', {}, { pull_request: { number: pr } });
    expect(plan.code).toBe(0);
    expect(ours()).toEqual([expect.objectContaining({ id: first.id })]);
    expect(ours()[0].body).toContain('**Plan:** 2 to add, 0 to change, 0 to destroy.');
    expect(github.issues.get(pr)!.comments).toHaveLength(121);
  });

  it('a plan that fails says so in the same comment, and fails the step', async () => {
    writeFileSync(join(world.dir, STACK_FILE), '{ "resource": ');
    const plan = await step('plan', { stack: 'platform' }, { pull_request: { number: pr } });
    expect(plan.code).toBe(1);
    expect(plan.outputs.exitcode).toBe('1');
    expect(ours()).toHaveLength(1);
    expect(ours()[0].body.startsWith(planMarker)).toBe(true);
    expect(ours()[0].body).toContain('tenantform plan for stack `platform` failed');
    expect(plan.output).toContain('::error title=Plan failed::');
  });

  it('refuses an event that is not a pull request', async () => {
    const plan = await step('plan', {}, { push: {} });
    expect(plan.code).toBe(1);
    expect(plan.output).toContain('runs on a pull_request event');
  });
});

describe('apply on merge, then the nightly drift check', () => {
  const driftIssues = () => [...github.issues.values()].filter((i) => i.body.startsWith('<!-- tenantform-drift stack=platform -->'));

  it('applies the stack', async () => {
    stack({ site_a: infra('Site A') });
    const apply = await step('apply');
    expect(apply.code).toBe(0);
    expect(apply.outputs.exitcode).toBe('0');
    expect(apply.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  });

  it('finds no drift, opens no issue and passes', async () => {
    const drift = await step('drift');
    expect(drift.code).toBe(0);
    expect(drift.outputs.exitcode).toBe('0');
    expect(drift.summary).toContain('platform');
    expect(driftIssues()).toEqual([]);
  });

  it('on drift opens one issue naming the changed object, then updates it, and fails the job', async () => {
    const state = JSON.parse(readFileSync(join(world.dir, 'terraform.platform.tfstate'), 'utf8'));
    const id = state.resources.find((r: any) => r.type === 'tenantform_infra_component').instances[0].attributes.id as string;
    await renameInfraByHand(world.client, id, 'Site A (renamed by hand)');
    const first = await step('drift');
    expect(first.code).toBe(1);
    expect(first.outputs.exitcode).toBe('2');
    expect(first.output).toContain('::error title=Drift detected::');
    expect(driftIssues()).toHaveLength(1);
    expect(driftIssues()[0].title).toBe('Drift in stack platform');
    expect(driftIssues()[0].body).toContain('- `tenantform_infra_component.site_a`: drifted');
    expect(first.outputs['issue-url']).toBe(`https://github.example/${REPOSITORY}/issues/${driftIssues()[0].number}`);
    expect(JSON.parse(readFileSync(join(world.dir, 'drift.json'), 'utf8')).stack).toBe('platform');

    const second = await step('drift', { 'fail-on-drift': 'false' });
    expect(second.code).toBe(0);
    expect(driftIssues()).toHaveLength(1);
  });

  it('once the apply repairs it, closes the issue with a comment', async () => {
    expect((await step('apply')).code).toBe(0);
    const drift = await step('drift');
    expect(drift.code).toBe(0);
    const [issue] = driftIssues();
    expect(issue.state).toBe('closed');
    expect(issue.comments.map((c) => c.body)).toEqual([expect.stringContaining('in sync again')]);
  });

  it('a drift check that cannot run fails without touching the issues', async () => {
    const before = github.requests.length;
    const drift = await step('drift', { 'client-secret': 'a-secret-the-platform-refuses' });
    expect(drift.code).toBe(1);
    expect(drift.output).toContain('::error title=Drift check failed::');
    expect(github.requests.length).toBe(before);
  });
});
