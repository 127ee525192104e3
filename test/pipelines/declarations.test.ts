/**
 * The pipeline packages as GitHub and GitLab read them: action.yml, the reusable workflow
 * (.github/workflows/tenantform.yml), the GitLab component (templates/tenantform.yml) and the
 * examples that use them, parsed as YAML. Every input used is declared and every declared one
 * used; every variable handed to a script is one it reads; the scripts and commands they name
 * exist; and the examples pass only what the packages declare.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeLoadAll } from 'js-yaml';

const ROOT = join(__dirname, '..', '..');
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const yaml = (file: string) => safeLoadAll(text(file)) as any[];
const all = (pattern: RegExp, source: string) => [...new Set([...source.matchAll(pattern)].map((m) => m[1]))].sort();
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

/** The inputs a script reads (`input('name')`, `variable('name', ...)`), and the commands it runs. */
function script(file: string) {
  const source = text(file) + text('pipelines/tool.mjs');
  return {
    inputs: all(/\b(?:input|variable)\('([a-z-]+)'/g, source),
    commands: (/runCommand\(\{ ([a-z, ]+) \}/.exec(text(file))?.[1] ?? '').split(', '),
  };
}
const inputOfVariable = (name: string) => name.slice('INPUT_'.length).toLowerCase().replace(/_/g, '-');

describe('the GitHub Action (action.yml)', () => {
  const [action] = yaml('action.yml');
  const declared = Object.keys(action.inputs);
  const steps = action.runs.steps as any[];
  const github = script('pipelines/github/tenantform.mjs');

  it('is a composite action whose steps use only the inputs it declares, and use them all', () => {
    expect(action.runs.using).toBe('composite');
    const used = all(/\$\{\{\s*inputs\.([a-z-]+)/g, JSON.stringify(steps));
    expect(used).toEqual(sorted(declared));
    for (const output of Object.values<any>(action.outputs)) expect(output.value).toMatch(/^\$\{\{ steps\.run\.outputs\.[a-z-]+ \}\}$/);
  });

  it('runs its script, which exists, with commands it has and inputs it reads', () => {
    for (const step of steps.filter((s) => s.run)) {
      const [, file, command] = /^node "\$GITHUB_ACTION_PATH\/(\S+)" "?\$?([A-Za-z_]+)"?$/.exec(step.run) ?? [];
      expect(existsSync(join(ROOT, file))).toBe(true);
      expect(file).toBe('pipelines/github/tenantform.mjs');
      if (command !== 'INPUT_COMMAND') expect(github.commands).toContain(command);
      const handed = Object.keys(step.env).filter((n) => n.startsWith('INPUT_') && n !== 'INPUT_COMMAND');
      for (const name of handed) expect(github.inputs).toContain(inputOfVariable(name));
    }
    expect(action.inputs.command.description).toMatch(/plan.*apply.*drift/);
    expect(github.commands).toEqual(['install', 'plan', 'apply', 'drift']);
  });

  it('hands the secrets to the script in the environment only, never on a command line', () => {
    const run = steps.find((s) => s.id === 'run');
    expect(run.env.INPUT_CLIENT_SECRET).toBe('${{ inputs.client-secret }}');
    for (const step of steps) expect(step.run ?? '').not.toMatch(/inputs\.|secret/);
  });

  it('caches the installed tool keyed on its version and the runner', () => {
    const cache = steps.find((s) => String(s.uses).startsWith('actions/cache@'));
    expect(cache.with.key).toBe('tenantform-${{ inputs.tenantform-version }}-${{ runner.os }}-${{ runner.arch }}');
    expect(cache.with.path).toBe('${{ runner.tool_cache }}/tenantform/${{ inputs.tenantform-version }}');
    expect(steps.find((s) => s.name === 'Install tenantform').env.INPUT_TOOL_DIR).toBe('${{ runner.tool_cache }}/tenantform');
  });
});

describe('the reusable workflow (.github/workflows/tenantform.yml)', () => {
  const [workflow] = yaml('.github/workflows/tenantform.yml');
  const call = workflow.on.workflow_call;
  const job = workflow.jobs.tenantform;
  const source = text('.github/workflows/tenantform.yml');

  it('uses only the inputs and secrets it declares, and uses them all', () => {
    expect(all(/\binputs\.([a-z-]+)/g, JSON.stringify(workflow.jobs))).toEqual(sorted(Object.keys(call.inputs)));
    expect(all(/\bsecrets\.([A-Z_]+)/g, source)).toEqual(sorted(Object.keys(call.secrets)));
  });

  it('runs the action checked out beside the app, with only inputs the action declares', () => {
    const [action] = yaml('action.yml');
    const checkout = job.steps.find((s: any) => s.with?.path === '.tenantform-action');
    expect(checkout.uses).toMatch(/^actions\/checkout@/);
    expect(checkout.with.repository).toBe('${{ inputs.action-repository }}');
    const step = job.steps.find((s: any) => s.uses === './.tenantform-action');
    expect(job.steps.indexOf(step)).toBeGreaterThan(job.steps.indexOf(checkout));
    for (const name of Object.keys(step.with)) expect(Object.keys(action.inputs)).toContain(name);
  });

  it('keeps one apply per stack at a time, never cancelled, and cancels only an older plan', () => {
    expect(job.concurrency.group).toContain('${{ inputs.stack }}');
    expect(job.concurrency.group).toContain('${{ inputs.command }}');
    expect(job.concurrency['cancel-in-progress']).toBe("${{ inputs.command == 'plan' }}");
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', issues: 'write' });
  });
});

describe('the GitLab CI/CD component (templates/tenantform.yml)', () => {
  const documents = yaml('templates/tenantform.yml');
  const declared = Object.keys(documents[0].spec.inputs);
  const jobs = documents[1];
  const gitlab = script('pipelines/gitlab/tenantform.mjs');

  it('is a spec header and the jobs, which use only the inputs it declares, and use them all', () => {
    expect(documents).toHaveLength(2);
    expect(all(/\$\[\[\s*inputs\.([a-z-]+)\s*\]\]/g, JSON.stringify(jobs))).toEqual(sorted(declared));
    expect(JSON.stringify(jobs)).not.toMatch(/\$\[\[(?!\s*inputs\.[a-z-]+\s*\]\])/);
  });

  it('hands the script only variables it reads, and runs its commands', () => {
    const base = jobs['.$[[ inputs.job-prefix ]]'];
    for (const name of Object.keys(base.variables).filter((n) => n.startsWith('INPUT_'))) expect(gitlab.inputs).toContain(inputOfVariable(name));
    expect(base.variables.TENANTFORM_SCRIPT).toBe('$CI_PROJECT_DIR/.tenantform/component/pipelines/gitlab/tenantform.mjs');
    expect(existsSync(join(ROOT, 'pipelines', 'gitlab', 'tenantform.mjs'))).toBe(true);
    expect(base.before_script).toContain('node "$TENANTFORM_SCRIPT" install');
    for (const command of ['plan', 'apply', 'drift']) {
      const job = jobs[`$[[ inputs.job-prefix ]]-${command}`];
      expect(job.extends).toBe('.$[[ inputs.job-prefix ]]');
      expect(job.script).toEqual([`node "$TENANTFORM_SCRIPT" ${command}`]);
      expect(gitlab.commands).toContain(command);
    }
  });

  it('names the credentials by their CI/CD variables, so no value is written in the YAML', () => {
    for (const name of declared.filter((n) => /client|token|password/.test(n))) expect(name).toMatch(/-variable$/);
  });

  it('caches the installed tool keyed on its version and platform, and keeps one apply per stack', () => {
    const base = jobs['.$[[ inputs.job-prefix ]]'];
    expect(base.cache[0]).toEqual({ key: 'tenantform-$[[ inputs.tenantform-version ]]-$[[ inputs.platform ]]', paths: ['.tenantform/tool/'] });
    expect(base.variables.INPUT_TOOL_DIR).toBe('$CI_PROJECT_DIR/.tenantform/tool');
    expect(jobs['$[[ inputs.job-prefix ]]-apply'].resource_group).toBe('tenantform-$[[ inputs.stack ]]');
  });
});

describe('the examples use the packages', () => {
  const [reusable] = yaml('.github/workflows/tenantform.yml');
  const call = reusable.on.workflow_call;

  it.each(['pull-request.yml', 'apply-on-merge.yml', 'nightly-drift.yml'])(
    'examples/github-actions/%s calls the reusable workflow with what it declares',
    (file) => {
      const [workflow] = yaml(`examples/github-actions/${file}`);
      const jobs = Object.values<any>(workflow.jobs);
      expect(jobs).toHaveLength(1);
      const [job] = jobs;
      expect(job.uses).toMatch(/^[\w-]+\/tenantform\/\.github\/workflows\/tenantform\.yml@/);
      for (const name of Object.keys(job.with)) expect(Object.keys(call.inputs)).toContain(name);
      for (const [name, spec] of Object.entries<any>(call.inputs)) if (spec.required) expect(job.with).toHaveProperty(name);
      expect(Object.keys(job.secrets).sort()).toEqual(Object.keys(call.secrets).sort());
      // The caller grants what the reusable workflow asks for.
      expect(job.permissions).toEqual(reusable.permissions);
    },
  );

  it('examples/gitlab-ci/.gitlab-ci.yml includes the component with inputs it declares', () => {
    const [pipeline] = yaml('examples/gitlab-ci/.gitlab-ci.yml');
    const [spec] = yaml('templates/tenantform.yml');
    const [include] = pipeline.include;
    expect(include.component).toMatch(/\/tenantform@/);
    for (const name of Object.keys(include.inputs)) expect(Object.keys(spec.spec.inputs)).toContain(name);
  });
});
