// The GitHub Action's steps (action.yml): `install`, then one of `plan` (the plan as the pull
// request's comments of the stack, updated by later pushes), `apply` and `drift` (one issue per
// stack while drift lasts, closed once in sync; the job fails on drift).
//
//   node pipelines/github/tenantform.mjs install|plan|apply|drift
//
// Inputs come as INPUT_<NAME> variables, the credentials as the action's inputs handed over in
// the environment; neither is ever printed.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { input, installRelease, runCommand, runTool, toolCommand, toolEnv, workspaceArgs } from '../tool.mjs';
import { githubApi } from './rest.mjs';
import { addSummary, annotateError, event, mask, runUrl, setOutput } from './runner.mjs';

const cwd = resolve(input('working-directory', '.'));
const stack = input('stack');
const version = input('tenantform-version');
const toolDir = input('tool-dir', join(process.env.RUNNER_TOOL_CACHE || tmpdir(), 'tenantform'));
const workspace = workspaceArgs({ stack, config: input('config'), synth: input('synth') === 'true' });

// Masked before anything else is printed.
mask(input('client-secret'), input('backend-password'));

function tool() {
  const env = toolEnv({
    baseUrl: input('base-url'),
    clientId: input('client-id'),
    clientSecret: input('client-secret'),
    backendConfig: input('backend-config'),
    backendPassword: input('backend-password'),
  });
  const command = toolCommand({ cwd, toolDir, version });
  return (args, stdoutFile) => runTool(command, args, { cwd, env, stdoutFile });
}

async function install() {
  if (!version) return console.log("tenantform: the project's own (its devDependency).");
  const { installed, fetched } = await installRelease({ releaseUrl: input('release-url'), version, toolDir });
  console.log(fetched ? `tenantform ${version} installed in ${installed}.` : `tenantform ${version} restored from the cache.`);
}

/** `<!-- tenantform-plan stack=NAME part=N -->`, the first line of each comment `plan -comments-dir` writes. */
const planMarker = (name, part) => `<!-- tenantform-plan stack=${name} part=${part} -->`;
const markedStack = (body) => /^<!-- tenantform-plan stack=(\S+) part=\d+ -->/.exec(body ?? '')?.[1];

async function plan() {
  const number = event().pull_request?.number;
  if (!number) throw new Error('command plan runs on a pull_request event: the event names no pull request.');
  const commentsDir = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'tenantform-comments-'));
  try {
    // Locks the state like `terraform plan`, and waits for an apply that holds it.
    const code = await tool()(
      [
        'plan',
        ...workspace,
        `-lock-timeout=${input('lock-timeout', '5m')}`,
        '-format=markdown',
        `-comments-dir=${commentsDir}`,
        '-detailed-exitcode',
        '-input=false',
      ],
      '/dev/null',
    );
    setOutput('exitcode', code);
    const github = githubApi();
    const comments = await github.listComments(number);
    const written = code === 1 ? [] : readdirSync(commentsDir).sort((a, b) => parseInt(a.slice(8)) - parseInt(b.slice(8)));
    const bodies = written.map((f) => readFileSync(join(commentsDir, f), 'utf8'));
    // A failed plan writes no comment, so its stack's name is the input's, or the one stack already commented.
    const known = [...new Set(comments.map((c) => markedStack(c.body)).filter(Boolean))];
    const name = bodies.length > 0 ? markedStack(bodies[0]) : stack || (known.length === 1 ? known[0] : 'default');
    if (code === 1 || bodies.length === 0) {
      bodies.splice(
        0,
        bodies.length,
        `${planMarker(name, 1)}\n## tenantform plan for stack \`${name}\` failed\n\nThe plan could not be made; see the [job log](${runUrl()}).\n`,
      );
    }
    const ours = (part) => comments.find((c) => c.body?.startsWith(planMarker(name, part)));
    let first;
    for (const [i, body] of bodies.entries()) {
      const previous = ours(i + 1);
      const posted = previous ? await github.updateComment(previous.id, body) : await github.createComment(number, body);
      first ??= posted;
    }
    // A shorter plan than last time: its extra comments go.
    for (let part = bodies.length + 1; ours(part); part++) await github.deleteComment(ours(part).id);
    setOutput('comment-url', first?.html_url ?? '');
    addSummary(bodies[0]);
    if (code === 1) {
      annotateError('Plan failed', `tenantform plan exited with 1 for stack ${name}; see the log above.`);
      return 1;
    }
    return 0;
  } finally {
    rmSync(commentsDir, { recursive: true, force: true });
  }
}

async function apply() {
  // Each change is written to the state as it is made: a failed apply leaves a state that records it.
  const code = await tool()(['apply', ...workspace, '-auto-approve', `-lock-timeout=${input('lock-timeout', '10m')}`, '-input=false']);
  setOutput('exitcode', code);
  if (code !== 0) annotateError('Apply failed', `tenantform apply exited with ${code}; see the log above.`);
  return code === 0 ? 0 : 1;
}

/** `<!-- tenantform-drift stack=NAME -->`, the first line of the stack's drift issue. */
const driftMarker = (name) => `<!-- tenantform-drift stack=${name} -->`;

function driftIssueBody(report) {
  const lines = report.resources.filter((r) => r.status !== 'in_sync').map((r) => `- \`${r.address}\`: ${r.status.replace('_', ' ')}`);
  return [
    driftMarker(report.stack),
    `Objects of stack \`${report.stack}\` were changed outside tenantform, as the [drift check](${runUrl()}) of ${report.checked_at ?? 'the last run'} found:`,
    '',
    ...lines,
    '',
    'Run `tenantform plan` to see the repair and apply it, or adopt the change in the configuration. This issue is kept up to date by each check and closed once the stack is in sync.',
  ].join('\n');
}

async function drift() {
  const reportFile = resolve(cwd, input('report-file', 'drift.json'));
  const summary = process.env.GITHUB_STEP_SUMMARY ? [`-summary-file=${process.env.GITHUB_STEP_SUMMARY}`] : [];
  const alert = input('platform-alert') === 'true' ? ['-alert'] : [];
  const code = await tool()(['drift', ...workspace, '-format=json', ...summary, ...alert], reportFile);
  setOutput('exitcode', code);
  if (code !== 0 && code !== 2) {
    annotateError('Drift check failed', `tenantform drift exited with ${code}; see the log above. Nothing was judged.`);
    return 1;
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  if (input('drift-issue', 'true') === 'true') {
    const github = githubApi();
    const open = (await github.listOpenIssues()).find((i) => i.body?.startsWith(driftMarker(report.stack)));
    if (code === 2) {
      const body = driftIssueBody(report);
      const issue = open ? await github.updateIssue(open.number, { body }) : await github.createIssue(`Drift in stack ${report.stack}`, body);
      setOutput('issue-url', issue.html_url ?? '');
    } else if (open) {
      await github.createComment(open.number, `The [drift check](${runUrl()}) finds stack \`${report.stack}\` in sync again.`);
      await github.updateIssue(open.number, { state: 'closed', state_reason: 'completed' });
    }
  }
  if (code === 2 && input('fail-on-drift', 'true') === 'true') {
    annotateError('Drift detected', `Objects of stack ${report.stack} were changed outside tenantform; the job summary lists them.`);
    return 1;
  }
  return 0;
}

await runCommand({ install, plan, apply, drift }, (message) => annotateError(`tenantform ${process.argv[2]}`, message));
