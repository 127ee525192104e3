// The GitLab CI/CD component's jobs (templates/tenantform.yml): `install`, then one of `plan` (the
// plan as ONE merge request note of the stack, updated by later pushes), `apply` and `drift` (the
// drifted objects listed and the job failed; with platform-alert, one alert in the platform's
// alert manager while drift lasts).
//
//   node pipelines/gitlab/tenantform.mjs install|plan|apply|drift
//
// Inputs come as INPUT_<NAME> variables. The credentials stay CI/CD variables: the inputs name
// them (client-id-variable, ...), so their values are never written into the pipeline's YAML.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { input, installRelease, releasePlatform, runCommand, runTool, toolCommand, toolEnv, workspaceArgs } from '../tool.mjs';

const cwd = resolve(input('working-directory', '.'));
const stack = input('stack');
const version = input('tenantform-version');
const toolDir = resolve(input('tool-dir', '.tenantform/tool'));
const workspace = workspaceArgs({ stack, config: input('config'), synth: input('synth') === 'true' });
const variable = (name, fallback) => process.env[input(name, fallback)] ?? '';

function tool() {
  const env = toolEnv({
    baseUrl: input('base-url') || variable('base-url-variable', 'TENANTFORM_BASE_URL'),
    clientId: variable('client-id-variable', 'TENANTFORM_CLIENT_ID'),
    clientSecret: variable('client-secret-variable', 'TENANTFORM_CLIENT_SECRET'),
    backendConfig: input('backend-config'),
    backendPassword: variable('backend-password-variable', 'CI_JOB_TOKEN'),
  });
  const command = toolCommand({ cwd, toolDir, version });
  return (args, stdoutFile) => runTool(command, args, { cwd, env, stdoutFile });
}

async function install() {
  if (!version) return console.log("tenantform: the project's own (its devDependency).");
  const target = input('platform', releasePlatform());
  const { installed, fetched } = await installRelease({ releaseUrl: input('release-url'), version, toolDir, target });
  console.log(fetched ? `tenantform ${version} installed in ${installed}.` : `tenantform ${version} restored from the cache.`);
}

/** GitLab's notes of the merge request, with the note token (the job token cannot write notes). */
function mergeRequestNotes() {
  const { CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID } = process.env;
  if (!CI_MERGE_REQUEST_IID) throw new Error('The plan job runs in merge request pipelines: CI_MERGE_REQUEST_IID is not set.');
  const notes = `${CI_API_V4_URL}/projects/${CI_PROJECT_ID}/merge_requests/${CI_MERGE_REQUEST_IID}/notes`;
  const headers = { 'PRIVATE-TOKEN': variable('note-token-variable', 'PLAN_NOTE_TOKEN'), 'Content-Type': 'application/json' };
  async function call(method, url, body) {
    const response = await fetch(url, { method, headers, body: body && JSON.stringify(body) });
    // The token never appears in the message: only the method, the path and the status.
    if (!response.ok) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}`);
    return response.json();
  }
  return {
    async find(marker) {
      for (let page = 1; ; page++) {
        const batch = await call('GET', `${notes}?per_page=100&page=${page}&sort=asc`);
        const found = batch.find((note) => note.body?.startsWith(marker));
        if (found || batch.length === 0) return found;
      }
    },
    create: (body) => call('POST', notes, { body }),
    update: (id, body) => call('PUT', `${notes}/${id}`, { body }),
  };
}

// GitLab takes notes up to 1,000,000 characters; a plan longer than this is read in the job log.
const NOTE_LIMIT = 900_000;

async function plan() {
  const planFile = resolve(cwd, 'plan.md');
  // Locks the state like `terraform plan`, and waits for an apply that holds it.
  const code = await tool()(
    ['plan', ...workspace, `-lock-timeout=${input('lock-timeout', '5m')}`, '-format=markdown', '-detailed-exitcode', '-input=false'],
    planFile,
  );
  const marker = `<!-- tenantform-plan stack=${stack || 'default'} -->`;
  const jobLog = process.env.CI_JOB_URL;
  let body =
    code === 1
      ? `${marker}\n### tenantform plan failed\n\nThe plan could not be made; see the [job log](${jobLog}).`
      : `${marker}\n${readFileSync(planFile, 'utf8')}`;
  if (body.length > NOTE_LIMIT) body = `${body.slice(0, NOTE_LIMIT)}\n\n... The plan is longer than a note can be; see the [job log](${jobLog}).`;
  const notes = mergeRequestNotes();
  const previous = await notes.find(marker);
  if (previous) await notes.update(previous.id, body);
  else await notes.create(body);
  // 0: no changes, 2: changes (both a successful plan), 1: error.
  return code === 1 ? 1 : 0;
}

async function apply() {
  // Each change is written to the state as it is made: a failed apply leaves a state that records it.
  const code = await tool()(['apply', ...workspace, '-auto-approve', `-lock-timeout=${input('lock-timeout', '10m')}`, '-input=false']);
  return code === 0 ? 0 : 1;
}

async function drift() {
  const reportFile = resolve(cwd, input('report-file', 'drift.json'));
  const alert = input('platform-alert') === 'true' ? ['-alert'] : [];
  const code = await tool()(['drift', ...workspace, '-format=json', ...alert], reportFile);
  if (code === 0) {
    console.log('No drift: the platform matches the configuration.');
    return 0;
  }
  if (code !== 2) {
    console.log(`tenantform drift exited with ${code}; see the log above. Nothing was judged.`);
    return 1;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const drifted = report.resources.filter((r) => r.status !== 'in_sync').map((r) => `- ${r.address}: ${r.status.replace('_', ' ')}`);
  console.log(`Drift in stack ${report.stack}: objects changed outside tenantform (${input('report-file', 'drift.json')} lists them).`);
  console.log(drifted.join('\n'));
  console.log('Run `tenantform plan` to see the repair, then apply it, or adopt the change in the configuration.');
  return input('fail-on-drift', 'true') === 'true' ? 1 : 0;
}

await runCommand({ install, plan, apply, drift }, (message) => console.error(message));
