import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, TerraformStack, Testing } from 'cdktf';
import { InfraComponent, TenantformProvider, TenantSetting } from '../../src';

const root = join(__dirname, '../..');

describe('the msp-onboarding example', () => {
  let out: string;
  let synthesized: Record<string, any>;

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'tenantform-synth-'));
    // The real cdktf CLI, as a user runs it, reading cdktf.json at the project root.
    execFileSync('npx', ['cdktf', 'synth', '--output', out], {
      cwd: root,
      env: { ...process.env, CHECKPOINT_DISABLE: '1', CI: '1' },
      stdio: 'pipe',
    });
    synthesized = JSON.parse(readFileSync(join(out, 'stacks/msp-onboarding/cdk.tf.json'), 'utf8'));
  }, 120_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('synthesizes every kind with snake_case attributes', () => {
    // The local backend's absolute path depends on where the project is checked out.
    const portable = JSON.parse(
      JSON.stringify(synthesized).replace(/"path":"[^"]*terraform\.msp-onboarding\.tfstate"/, '"path":"<project>/terraform.msp-onboarding.tfstate"'),
    );
    expect(portable).toMatchSnapshot();
  });

  it('references resources and data sources by Terraform expressions', () => {
    const settings = synthesized.resource.tenantform_tenant_setting;
    expect(settings.acme_retention.tenant_id).toBe('${tenantform_application_binding.acme_backup.tenant_id}');
    expect(settings.northwind_backup_window.lock).toBe(true);
    expect(JSON.parse(settings.northwind_backup_window.value)).toEqual({ start: '22:00', end: '04:00' });
    expect(synthesized.resource.tenantform_infra_component.northwind_dr_site.owner_tenant_id).toBe('${data.tenantform_tenant.northwind.id}');
    expect(synthesized.terraform.required_providers.tenantform.source).toBe('tenantform/tenantform');
  });

  it('keeps credentials out of the synthesized JSON', () => {
    expect(synthesized.provider.tenantform).toEqual([{}]);
  });
});

describe('constructs', () => {
  function synth(build: (stack: TerraformStack) => void): Record<string, any> {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'test');
    new TenantformProvider(stack, 'tenantform');
    build(stack);
    return JSON.parse(Testing.synth(stack));
  }

  it('passes lifecycle through', () => {
    const json = synth((stack) => {
      new InfraComponent(stack, 'site', {
        ownerTenantId: '0b9d6b1e-3c7f-4d2a-9e8f-1a2b3c4d5e6f',
        name: 'Site',
        url: 'https://site.example',
        capabilities: ['backup'],
        lifecycle: { ignoreChanges: ['backend_type'], preventDestroy: true },
      });
    });
    expect(json.resource.tenantform_infra_component.site.lifecycle).toEqual({
      ignore_changes: ['backend_type'],
      prevent_destroy: true,
    });
  });

  it('reports invalid props at synth time with the address and attribute path', () => {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'tenantform-bad-')) });
    const stack = new TerraformStack(app, 'bad');
    new TenantformProvider(stack, 'tenantform');
    new TenantSetting(stack, 'broken', {
      applicationId: 'not-a-uuid',
      tenantId: '0b9d6b1e-3c7f-4d2a-9e8f-1a2b3c4d5e6f',
      name: 'retention_days',
      value: '{not json',
    });
    expect(() => app.synth()).toThrow(/tenantform_tenant_setting\.broken: application_id: .*uuid/);
    expect(() => app.synth()).toThrow(/tenantform_tenant_setting\.broken: value: Not valid JSON/);
  });
});

describe('generated files', () => {
  it('the registry and reference docs match the declarations', () => {
    const run = spawnSync('npx', ['tsx', 'scripts/generate.ts', '--check'], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/Out of date/);
    expect(run.status).toBe(0);
  });
});
