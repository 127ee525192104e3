/**
 * tenantform as a dependency: the packed tarball installed in a user's project next to cdktf
 * 0.20, cdktf 0.21 or CDK Terrain (cdktn) 0.24, its constructs imported by package name,
 * synthesized, planned and applied against the emulator with the installed `tenantform`
 * command; and a Terraform lock file made from one install accepted by another.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { ensureBuilt, requireTerraform, ROOT } from '../provider/helpers';
import { createProject, expectRun, npmEnvironment, pack, STACK, synthesize, typecheck, type Flavour } from './project';

/**
 * `typecheck`: the oldest cdktf (the declarations are built against 0.21's, which this checkout
 * type-checks itself) and cdktn through the README's `paths` mapping; one tsc run costs more
 * than the rest of a project's steps.
 */
const FLAVOURS: (Flavour & { name: string; typecheck: boolean })[] = [
  { name: 'cdktf 0.20', library: 'cdktf', version: '0.20', typecheck: true },
  { name: 'cdktf 0.21', library: 'cdktf', version: '0.21', typecheck: false },
  { name: 'cdktn 0.24', library: 'cdktn', version: '0.24', typecheck: true },
];

interface Installed {
  readonly dir: string;
  readonly emulator: RunningEmulator;
  readonly env: NodeJS.ProcessEnv;
  synthesized?: Record<string, any>;
}

let work: string;
let tarball: string;
const projects = new Map<string, Installed>();

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'tenantform-package-'));
  tarball = await pack(work);
}, 300_000);

afterAll(async () => {
  for (const project of projects.values()) await project.emulator.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test.each(
  readFileSync(join(ROOT, 'README.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('npm install --save-dev git+'))
    .map((line) => [line]),
)(
  "the README's install line resolves in a new project, with the constructs npm picks: %s",
  async (line) => {
    const dir = mkdtempSync(join(work, 'readme-line-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-line', version: '1.0.0', private: true }));
    // The tarball in place of the repository; npm resolves the whole tree and installs nothing.
    const args = line
      .split(/\s+/)
      .slice(1)
      .map((word) => (word.startsWith('git+') ? tarball : word));
    await expectRun('npm', [...args, '--dry-run', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env: npmEnvironment() });
  },
  180_000,
);

test('the tarball holds the built package and leaves sources, tests and fixtures out', () => {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
  expect(files).toEqual(
    expect.arrayContaining([
      'package/package.json',
      'package/LICENSE',
      'package/bin/tenantform.js',
      'package/dist/cli/main.js',
      'package/dist/bundle/tenantform.js',
      'package/dist/bundle/tenantform.js.mappings',
      'package/dist/bundle/tenantform.js.lines',
      'package/dist/index.d.ts',
      'package/dist/provider/main.js',
    ]),
  );
  expect(files.filter((f) => /\.test\.|^package\/(src|test|bench|scripts|examples)\/|__snapshots__|\.tsbuildinfo$|\.tfstate/.test(f))).toEqual([]);
});

describe.each(FLAVOURS)('a project on $name', (flavour) => {
  let project: Installed;
  const tenantform = (args: string[], codes?: number[]) =>
    expectRun(join(project.dir, 'node_modules', '.bin', 'tenantform'), args, { cwd: project.dir, env: project.env }, codes);

  beforeAll(async () => {
    const emulator = await startEmulator({ port: 0, seed: 1 });
    const dir = await createProject(join(work, flavour.name.replace(/\W+/g, '-')), tarball, flavour);
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      CHECKPOINT_DISABLE: '1',
      TENANTFORM_BASE_URL: emulator.url,
      TENANTFORM_CLIENT_ID: emulator.clientId,
      TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
    };
    project = { dir, emulator, env };
    projects.set(flavour.name, project);
  }, 300_000);

  test('npm installs one copy of the CDK library and of constructs: the project’s own', () => {
    const nested = join(project.dir, 'node_modules', 'tenantform', 'node_modules');
    for (const name of ['cdktf', 'cdktn', 'constructs']) expect(existsSync(join(nested, name))).toBe(false);
    expect(existsSync(join(project.dir, 'node_modules', flavour.library))).toBe(true);
    expect(existsSync(join(project.dir, 'node_modules', 'constructs'))).toBe(true);
  });

  test('the example app, importing its constructs from `tenantform`, synthesizes', async () => {
    project.synthesized = await synthesize(project.dir);
    expect(project.synthesized.terraform.required_providers.tenantform.source).toBe('tenantform/tenantform');
    const types = Object.keys(project.synthesized.resource);
    expect(types.length).toBeGreaterThan(3);
    for (const type of types) expect(type).toMatch(/^tenantform_/);
    // Every library writes the same resources, data sources and provider block.
    const first = projects.get(FLAVOURS[0].name)!.synthesized!;
    for (const block of ['resource', 'data', 'provider']) expect(project.synthesized[block]).toEqual(first[block]);
  }, 120_000);

  if (flavour.typecheck) {
    test('the app type-checks against the package’s declarations', async () => {
      await typecheck(project.dir);
    }, 120_000);
  }

  if (flavour.library === 'cdktn') {
    test('with the CDK Terrain template’s compiler options (skipLibCheck, no paths), a wrong prop is a compile error', async () => {
      const dir = join(project.dir, 'template-options');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'ES2022', noEmit: true, skipLibCheck: true }, files: ['app.ts'] }),
      );
      const app = (tenantProps: string, rolesProps: string, unitParent: string) =>
        [
          "import { App, TerraformIterator, TerraformStack } from 'cdktn';",
          "import { Tenant, UserRoles } from 'tenantform';",
          'const stack = new TerraformStack(new App(), "s");',
          `const t = new Tenant(stack, 't', ${tenantProps});`,
          `new UserRoles(stack, 'r', ${rolesProps});`,
          // The construct's attributes are typed, and it goes wherever cdktn takes an element.
          `const unit = new Tenant(stack, 'u', { name: 'Unit', parentId: ${unitParent}, kind: 'unit', dependsOn: [t] });`,
          'const each = TerraformIterator.fromResources(unit);',
          'const id: string = unit.id;',
          'export { t, each, id };',
        ].join('\n');
      writeFileSync(
        join(dir, 'app.ts'),
        app("{ name: 'Contoso', parentId: 'p', kind: 'customer' }", "{ userId: 'u', roles: [{ tenantId: t.id, roleId: 'company_admin' }] }", 't.id'),
      );
      await typecheck(dir);
      writeFileSync(
        join(dir, 'app.ts'),
        app("{ nmae: 'Contoso', parentId: 'p', kind: 'customer' }", "{ userId: 'u', roles: [{ tenantId: 1, roleId: 'company_admin' }] }", 't.tenantId'),
      );
      const refused = await expectRun(
        process.execPath,
        [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir],
        { cwd: dir, env: process.env },
        [1, 2],
      );
      expect(refused.output).toMatch(/'nmae' does not exist/);
      expect(refused.output).toMatch(/tenantId[\s\S]*number[\s\S]*string|Type 'number' is not assignable to type 'string'/);
      expect(refused.output).toMatch(/Property 'tenantId' does not exist/);
    }, 120_000);
  }

  test('`npx tenantform` plans, applies, and then plans nothing', async () => {
    const resources = Object.values(project.synthesized!.resource as Record<string, object>).reduce((n, blocks) => n + Object.keys(blocks).length, 0);
    const plan = await expectRun('npx', ['--no', 'tenantform', 'plan', '--detailed-exitcode'], { cwd: project.dir, env: project.env }, [2]);
    expect(plan.stdout).toContain(`Plan: ${resources} to add, 0 to change, 0 to destroy.`);
    await tenantform(['apply', '--auto-approve']);
    const again = await tenantform(['plan', '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
  }, 120_000);
});

describe('the provider installed from two projects', () => {
  const terraformEnv = (project: Installed, config: string) => ({ ...project.env, TF_CLI_CONFIG_FILE: config, TF_IN_AUTOMATION: '1' });

  /** `tenantform provider install` into the project's own mirror; returns the CLI configuration file. */
  async function installMirror(project: Installed): Promise<string> {
    const installed = await expectRun(
      join(project.dir, 'node_modules', '.bin', 'tenantform'),
      ['provider', 'install', '--dir', join(project.dir, 'mirror'), '--print-cli-config'],
      {
        cwd: project.dir,
        env: project.env,
      },
    );
    const config = join(project.dir, 'tenantform.tfrc');
    writeFileSync(config, installed.stdout);
    return config;
  }

  test('a lock file made from one passes `terraform init` with the other, whose provider then plans the state tenantform applied', async () => {
    const first = projects.get('cdktf 0.21')!;
    const second = projects.get('cdktn 0.24')!;
    const firstConfig = await installMirror(first);
    const secondConfig = await installMirror(second);
    const firstStack = join(first.dir, 'cdktf.out', 'stacks', STACK);
    const secondStack = join(second.dir, 'cdktf.out', 'stacks', STACK);

    await expectRun('terraform', ['init', '-input=false', '-no-color'], { cwd: firstStack, env: terraformEnv(first, firstConfig) });
    const lock = readFileSync(join(firstStack, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toMatch(/provider "registry\.terraform\.io\/tenantform\/tenantform"[\s\S]*h1:/);

    copyFileSync(join(firstStack, '.terraform.lock.hcl'), join(secondStack, '.terraform.lock.hcl'));
    await expectRun('terraform', ['init', '-input=false', '-no-color', '-lockfile=readonly'], { cwd: secondStack, env: terraformEnv(second, secondConfig) });
    expect(readFileSync(join(secondStack, '.terraform.lock.hcl'), 'utf8')).toBe(lock);

    // The second project's provider reads the state its own `tenantform apply` wrote: nothing to do.
    const plan = await expectRun('terraform', ['plan', '-input=false', '-no-color', '-detailed-exitcode'], {
      cwd: secondStack,
      env: terraformEnv(second, secondConfig),
    });
    expect(plan.stdout).toContain('No changes.');
  }, 180_000);
});
