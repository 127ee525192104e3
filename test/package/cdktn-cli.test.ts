/**
 * The documented CDK Terrain path with its real CLI: a user's cdktn project (cdktn, constructs,
 * cdktn-cli and the packed tarball) taken through the steps the example GitHub workflows run
 * with the reusable workflow and the action — its synth command (`npx cdktn synth`), the pull
 * request's plan, `npx cdktn deploy` through tenantform's provider (as the README gives it), the
 * merge's apply, the nightly drift check and the next pull request's plan — on a Node.js new
 * enough for cdktn-cli: the machine's, or Node's own build from the npm registry. The action's
 * script runs the project's own tenantform, against the emulator and a stand-in of GitHub's API.
 * The state is where the examples keep it: in PostgreSQL, through the stack's PgBackend, its URL
 * without the password in STATE_DB_URL (the action's backend-config) and the password in
 * PGPASSWORD (its backend-password).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { ensureBuilt, requireTerraform, ROOT, type RunResult } from '../provider/helpers';
import { startPostgres, type RunningPostgres } from '../helpers/postgres';
import { atLeast, cdktnNodeBin } from './pipeline-node';
import { createProject, expectRun, pack, STACK } from './project';
import { safeLoadAll } from 'js-yaml';
import { openPullRequest, startGitHub, type FakeGitHub } from '../pipelines/fake-github';
import { runActionStep } from '../pipelines/github-runner';
import { runStep } from './workflow';

jest.setTimeout(300_000);

/** A customer under the partner, with backup turned on for it. */
const APP = `import { App, PgBackend, TerraformStack } from 'cdktn';
import type { Construct } from 'constructs';
import { ApplicationBinding, DataTenantformApplication, DataTenantformTenant, Tenant, TenantformProvider } from 'tenantform';

class Onboarding extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new PgBackend(this, { connStr: process.env.STATE_DB_URL! });
    new TenantformProvider(this, 'tenantform');
    const backup = new DataTenantformApplication(this, 'backup', { type: 'backup' });
    const partner = new DataTenantformTenant(this, 'northwind', { name: 'Northwind Partner' });
    const fabrikam = new Tenant(this, 'fabrikam', { parentId: partner.id, kind: 'customer', name: 'Fabrikam' });
    new ApplicationBinding(this, 'fabrikam_backup', { applicationId: backup.id, tenantId: fabrikam.id });
  }
}

const app = new App();
new Onboarding(app, '${STACK}');
app.synth();
`;

/** The reusable workflow's synth command, as the examples leave it. */
const [reusable] = safeLoadAll(readFileSync(join(ROOT, '.github', 'workflows', 'tenantform.yml'), 'utf8')) as any[];
const synthCommand: string = reusable.on.workflow_call.inputs['synth-command'].default;

let work: string;
let dir: string;
let nodeBin: string;
let emulator: RunningEmulator;
let client: PlatformClient;
let env: NodeJS.ProcessEnv;
let pg: RunningPostgres;
let github: FakeGitHub;
let pullRequest: number;

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  [emulator, pg, github] = await Promise.all([startEmulator({ port: 0, seed: 29 }), startPostgres(), startGitHub()]);
  pullRequest = openPullRequest(github, 0);
  client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  work = mkdtempSync(join(tmpdir(), 'tenantform-cdktn-cli-'));
  nodeBin = await cdktnNodeBin();
  const path = [nodeBin];
  dir = await createProject(
    join(work, 'platform-config'),
    await pack(work),
    { library: 'cdktn', version: '0.24' },
    {
      app: APP,
      packages: ['constructs@10', 'cdktn-cli@0.24', 'tsx@4'],
      path,
    },
  );
  // The workflows' environment; the runner's PATH starts with the Node that setup-node installs.
  env = {
    PATH: [...path, process.env.PATH].join(delimiter),
    HOME: process.env.HOME,
    CI: 'true',
    STACK,
    TENANTFORM_BASE_URL: emulator.url,
    TENANTFORM_CLIENT_ID: emulator.clientId,
    TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
    STATE_DB_URL: `postgres://${pg.user}@127.0.0.1:${pg.port}/postgres?sslmode=disable`,
    PGPASSWORD: pg.password,
    CHECKPOINT_DISABLE: '1',
  };
}, 600_000);

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  await pg?.stop();
  await github?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs a step in the project; fails with its output when bash exits otherwise than `code`. */
async function step(script: string): Promise<RunResult> {
  const result = await runStep(script, { cwd: dir, env });
  expect(result.output).not.toContain(emulator.clientSecret);
  expect(result.output).not.toContain(pg.password);
  if (result.code !== 0) throw new Error(`The step exited ${result.code}:\n${script}\n${result.output}`);
  return result;
}

/** The action's step for `command`, with the inputs the example workflows give it; fails with its output when it exits otherwise than `code`. */
async function action(command: string, code = 0) {
  const inputs = {
    stack: STACK,
    'backend-config': `STATE_DB_URL=${env.STATE_DB_URL}`,
    'backend-password': pg.password,
    'base-url': emulator.url,
    'client-id': emulator.clientId,
    'client-secret': emulator.clientSecret,
  };
  const jobEnv = { PATH: env.PATH, HOME: env.HOME };
  const result = await runActionStep(command, { cwd: dir, github, env: jobEnv, inputs, event: { pull_request: { number: pullRequest } } });
  const log = result.output.split('\n').filter((l) => !l.startsWith('::add-mask::'));
  expect(log.join('\n')).not.toContain(emulator.clientSecret);
  expect(log.join('\n')).not.toContain(pg.password);
  if (result.code !== code) throw new Error(`The action's ${command} exited ${result.code}, expected ${code}:\n${result.output}`);
  return result;
}

const comment = () =>
  github.issues
    .get(pullRequest)!
    .comments.map((c) => c.body)
    .join('\n');
const fabrikam = async () => {
  const partner = emulator.world().tenants['Northwind Partner'].id;
  return (await client.getTenants({ parentId: partner })).find((t) => t.name === 'Fabrikam');
};

test('cdktn-cli runs on a Node.js its engines accept, first on the workflows’ PATH', async () => {
  const engines = (JSON.parse(readFileSync(join(dir, 'node_modules', 'cdktn-cli', 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  const minimum = /^>=\s*(\d+\.\d+\.\d+)$/.exec(engines)?.[1];
  if (!minimum) throw new Error(`cdktn-cli now asks for Node "${engines}": update the minimum in test/package/pipeline-node.ts.`);
  const node = await expectRun('node', ['--version'], { cwd: dir, env });
  expect(atLeast(node.stdout.trim(), minimum)).toBe(true);
  const version = await expectRun('npx', ['cdktn', '--version'], { cwd: dir, env });
  expect(version.stdout).toMatch(/^0\.24\.\d+/m);
});

test('`npx cdktn synth` writes the stack', async () => {
  expect(synthCommand).toBe('npx cdktn synth');
  await step(`${synthCommand}\n`);
  const stack = JSON.parse(readFileSync(join(dir, 'cdktf.out', 'stacks', STACK, 'cdk.tf.json'), 'utf8')) as Record<string, any>;
  expect(stack.resource.tenantform_tenant.fabrikam.name).toBe('Fabrikam');
  expect(stack.terraform.required_providers.tenantform.source).toBe('tenantform/tenantform');
  expect(stack.terraform.backend.pg.conn_str).toBe(env.STATE_DB_URL);
});

test('the pull request’s plan comments the customer and its backup to add', async () => {
  const plan = await action('plan');
  expect(plan.outputs.exitcode).toBe('2');
  expect(comment()).toMatch(new RegExp(`^<!-- tenantform-plan stack=${STACK} part=1 -->`));
  expect(comment()).toContain('**Plan:** 2 to add, 0 to change, 0 to destroy.');
  expect(comment()).toContain('tenantform_tenant.fabrikam');
  expect(await fabrikam()).toBeUndefined();
});

test('`npx cdktn deploy`, with the provider installed as the README says, creates the customer on the platform', async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const line = (start: string) => readme.find((l) => l.startsWith(start)) ?? `echo "README.md has no line starting with ${start}" >&2; exit 1`;
  const deploy = await step([line('npx tenantform provider install --dir'), line('export TF_CLI_CONFIG_FILE='), line('npx cdktn deploy')].join('\n') + '\n');
  expect(deploy.output).toMatch(/Apply complete! Resources: 2 added, 0 changed, 0 destroyed\./);
  const created = await fabrikam();
  expect(created?.kind).toBe('customer');
  expect(await client.listTenantApplications(created!.id)).toContain(emulator.world().applications.backup.id);
  // Recorded in PostgreSQL, where tenantform reads it: no state file beside the stack.
  expect(existsSync(join(dir, 'cdktf.out', 'stacks', STACK, 'terraform.tfstate'))).toBe(false);
  const listed = await expectRun('npx', ['tenantform', 'state', 'list', '-stack', STACK], { cwd: dir, env });
  expect(listed.stdout.trim().split('\n')).toEqual([
    'data.tenantform_application.backup',
    'data.tenantform_tenant.northwind',
    'tenantform_application_binding.fabrikam_backup',
    'tenantform_tenant.fabrikam',
  ]);
});

test('the merge’s apply finds nothing left to do', async () => {
  const apply = await action('apply');
  expect(apply.output).toContain('No changes.');
});

test('the nightly drift check finds the platform in sync, and the job passes', async () => {
  const drift = await action('drift');
  expect(drift.outputs.exitcode).toBe('0');
  const report = JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8')) as { resources: { address: string; status: string }[] };
  expect(report.resources.map((r) => [r.address, r.status]).sort()).toEqual([
    ['tenantform_application_binding.fabrikam_backup', 'in_sync'],
    ['tenantform_tenant.fabrikam', 'in_sync'],
  ]);
  expect(drift.summary).toContain(STACK);
  expect([...github.issues.values()].filter((i) => !i.pull_request)).toEqual([]);
});

test('the next pull request’s plan is empty', async () => {
  const plan = await action('plan');
  expect(plan.outputs.exitcode).toBe('0');
  expect(github.issues.get(pullRequest)!.comments).toHaveLength(1);
  expect(comment()).toContain('**No changes.** Your configuration matches the platform.');
});

test('after an edit, a plan warns that the stack is older than the app, and `-synth` runs the cdktn app first', async () => {
  const stackFile = join(dir, 'cdktf.out', 'stacks', STACK, 'cdk.tf.json');
  const edited = new Date();
  const before = new Date(edited.getTime() - 60_000);
  utimesSync(join(dir, 'main.ts'), edited, edited);
  utimesSync(stackFile, before, before);
  const stale = await expectRun('npx', ['tenantform', 'plan', '-stack', STACK], { cwd: dir, env });
  expect(stale.stderr).toContain('main.ts is newer than the synthesized stack');
  expect(stale.stderr).toContain('cdktn synth');

  const synthesized = await expectRun('npx', ['tenantform', 'plan', '-synth', '-stack', STACK, '-detailed-exitcode'], { cwd: dir, env });
  expect(synthesized.stderr).toContain('Synthesizing the app: npx tsx main.ts');
  expect(synthesized.stderr).not.toContain('newer than the synthesized stack');
  expect(statSync(stackFile).mtimeMs).toBeGreaterThanOrEqual(edited.getTime());
  expect(synthesized.stdout).toContain('No changes.');
});
