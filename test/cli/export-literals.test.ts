/**
 * Platform text is never run as code: names chosen by a customer's administrator (a tenant, a
 * contact, an infrastructure component) that hold Terraform templates and cdktf tokens are
 * exported in every format, and the exported configuration is planned by tenantform and by
 * `terraform` with the provider. Had anything been evaluated, the plan would change the object
 * (or fail): it imports each one as it is.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LOCATION_ID, run } from './helpers';
import { startTerraformFolder, type TerraformFolderWorld } from './terraform-folder';

const ROOT = join(__dirname, '../..');

/** What a customer's administrator can name things. */
const HOSTILE = {
  partner: 'Hostile ${file("/proc/self/environ")} Partner',
  customer: 'Fabrikam %{ if true }evaluated%{ endif } $${kept} #{TfToken[TOKEN.1]}',
  contact: '${tenantform_api_client.mon.client_secret}',
  // A right-to-left override and a C1 control: a reviewer of the HCL must see them as escapes.
  infra: 'DR site &{TfToken[TOKEN.2]} ${TfToken[TOKEN.3]} $ \u202egnp.exe \u0085',
};

/** An attribute as terraform's plan shows it, `=` aligned. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const shown = (name: string, value: string) => new RegExp(`\\b${name} += ${escapeRegExp(JSON.stringify(value).slice(0, -1))}`);

describe('export writes platform text as literals', () => {
  let folder: TerraformFolderWorld;
  let partner: string;
  let objects: number;

  beforeAll(async () => {
    folder = await startTerraformFolder('export-literals', {});
    const { client, emulator } = folder.world;
    partner = (await client.createTenant({ name: HOSTILE.partner, parent_id: emulator.tenantId, kind: 'partner' })).id;
    await client.createTenant({ name: HOSTILE.customer, parent_id: partner, kind: 'customer', contact: { firstname: HOSTILE.contact } });
    await client.createInfra({
      owner_tenant_id: partner,
      location_id: LOCATION_ID,
      name: HOSTILE.infra,
      url: 'https://dr.example.com',
      capabilities: ['backup'],
      backend_type: 'acronis',
    });
    // The partner is the export's root: its customer and its component are declared.
    objects = 2;
  }, 180_000);

  afterAll(async () => {
    await folder?.world.close();
  });

  const exported = async (format: string, file: string, cwd = folder.world.dir) => {
    const out = join(folder.world.dir, file);
    const result = await run({ dir: cwd, env: folder.world.env }, ['export', '--tenant', partner, '--format', format, '--out', out, '--import-blocks']);
    expect(result.stderr).toContain('Exported');
    expect(result.code).toBe(0);
    return out;
  };

  /** tenantform's own plan of a configuration, and terraform's of the same files in its folder. */
  const expectBothImportAsItIs = async (config: string, terraformFiles: Record<string, string>) => {
    const importsOnly = `Plan: ${objects} to import, 0 to add, 0 to change, 0 to destroy.`;
    const state = join(folder.world.dir, `${relative(folder.world.dir, config).replace(/\W/g, '_')}.tfstate`);
    const native = await run(folder.world, ['plan', '--config', config, '--state', state]);
    expect(native.stderr).not.toMatch(/Error|Warning/);
    expect(native.stdout).toContain(importsOnly);
    for (const name of ['main.tf', 'main.tf.json']) rmSync(join(folder.folder, name), { force: true });
    folder.write(terraformFiles);
    expect((await folder.terraform('init', '-reconfigure')).code).toBe(0);
    const terraform = await folder.terraform('plan');
    expect(terraform.stderr).toBe('');
    expect(terraform.stdout).toContain(importsOnly);
    // The names arrive as they are, the templates in them unevaluated.
    // Up to the marks, which terraform shows in its own way.
    expect(terraform.stdout).toMatch(shown('name', HOSTILE.infra.slice(0, HOSTILE.infra.indexOf(' \u202e'))));
    expect(terraform.stdout).toMatch(shown('first_name', HOSTILE.contact));
  };

  it('as Terraform JSON', async () => {
    const out = await exported('json', 'exported.tf.json');
    await expectBothImportAsItIs(out, { 'main.tf.json': readFileSync(out, 'utf8') });
  }, 180_000);

  it('as HCL', async () => {
    const hcl = join(folder.world.dir, 'hcl');
    mkdirSync(hcl);
    const out = await exported('hcl', 'hcl/main.tf');
    expect(readFileSync(out, 'utf8')).toContain('\\u202egnp.exe \\u0085');
    expect(readFileSync(out, 'utf8')).not.toMatch(/[\u0085\u202e]/);
    await expectBothImportAsItIs(hcl, { 'main.tf': readFileSync(out, 'utf8') });
  }, 180_000);

  it('as a cdktf app, whose synth keeps every name as text', async () => {
    // Inside the project, so that `cdktf` resolves as it does for a user's app, and the export
    // writes for the project's library.
    mkdirSync(join(ROOT, 'cdktf.out'), { recursive: true });
    const app = mkdtempSync(join(ROOT, 'cdktf.out/export-literals-'));
    try {
      const source = await exported('typescript', 'exported.ts', app);
      writeFileSync(join(app, 'main.ts'), readFileSync(source, 'utf8'));
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({ extends: `${relative(app, ROOT)}/tsconfig.json`, compilerOptions: { paths: { tenantform: [join(ROOT, 'src/index.ts')] } } }),
      );
      execFileSync(join(ROOT, 'node_modules/.bin/tsx'), ['--tsconfig', join(app, 'tsconfig.json'), join(app, 'main.ts')], {
        env: { ...process.env, CDKTF_OUTDIR: join(app, 'out') },
        stdio: 'pipe',
      });
      const stacks = join(app, 'out/stacks');
      const synthesized = join(folder.world.dir, 'synthesized.tf.json');
      const [stack] = readdirSync(stacks);
      writeFileSync(synthesized, readFileSync(join(stacks, stack, 'cdk.tf.json'), 'utf8'));
      await expectBothImportAsItIs(synthesized, { 'main.tf.json': readFileSync(synthesized, 'utf8') });
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  }, 180_000);
});
