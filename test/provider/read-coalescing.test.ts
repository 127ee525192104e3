/**
 * `terraform plan` asks the provider for one object per ReadResource, ten at a time. The
 * provider gathers those calls into the kinds' batch reads and shares listings within the
 * refresh; the emulator counts what reaches the platform.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { infraComponentsHcl, leftoverProviders, run, useTerraformStack, type RunResult, PROVIDER_HCL } from './helpers';

jest.setTimeout(180_000);

const SETTINGS = 6;
const COMPONENTS = 4;

const MAIN_TF = `${PROVIDER_HCL}
data "tenantform_tenant" "globex" {
  name = "Globex Retail"
}
data "tenantform_application" "backup" {
  type = "backup"
}

resource "tenantform_application_binding" "backup" {
  application_id = data.tenantform_application.backup.id
  tenant_id      = data.tenantform_tenant.globex.id
}

resource "tenantform_tenant_setting" "many" {
  count          = ${SETTINGS}
  application_id = data.tenantform_application.backup.id
  tenant_id      = data.tenantform_tenant.globex.id
  name           = "batch_\${count.index}"
  value          = jsonencode(count.index)
}

${infraComponentsHcl('many', COMPONENTS, 'data.tenantform_tenant.globex.id', 'Component')}`;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

const requests: string[] = [];
const stack = useTerraformStack({ name: 'coalescing', seed: 5, mainTf: MAIN_TF, log: (line) => requests.push(line.split(' ').slice(0, 2).join(' ')) });

async function terraform(...args: string[]): Promise<RunResult> {
  const r = await run('terraform', [...args, '-input=false', '-no-color'], { cwd: stack.dir, env: stack.env });
  expect(await leftoverProviders(stack.marker)).toEqual([]);
  return r;
}

beforeAll(async () => {
  const apply = await terraform('apply', '-auto-approve');
  if (apply.code !== 0) throw new Error(apply.output);
});

test('terraform plan reads the objects in batches and sends no request twice', async () => {
  requests.length = 0;
  const plan = await terraform('plan', '-detailed-exitcode');
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);

  const endpoint = (r: string) => r.split('?')[0].replace(UUID, '{id}');
  const to = (e: string) => requests.filter((r) => endpoint(r) === e);
  // Each setting is read once, by name: the platform lists no tenant's settings.
  const settingReads = requests.filter((r) => /\/settings\/tenants\/[^/]+\/batch_\d+$/.test(r));
  expect(settingReads).toHaveLength(SETTINGS);
  expect(to('GET /api/2/tenants/{id}/applications')).toHaveLength(1);
  // Each component is asked for once, in requests that gather the calls of one moment.
  const ids = JSON.parse(readFileSync(join(stack.dir, 'terraform.tfstate'), 'utf8'))
    .resources.filter((r: { type: string }) => r.type === 'tenantform_infra_component')
    .flatMap((r: { instances: Array<{ attributes: { id: string } }> }) => r.instances.map((i) => i.attributes.id));
  expect(ids).toHaveLength(COMPONENTS);
  const asked = to('GET /api/2/infra').flatMap((r) => decodeURIComponent(r.split('uuids=')[1]).split(','));
  expect(asked.sort()).toEqual([...ids].sort());
  expect(new Set(requests).size).toBe(requests.length);
  // Eleven managed objects and two data sources: one read per setting, the components and
  // the bindings gathered.
  expect(requests.filter((r) => !r.startsWith('POST /api/2/idp/token')).length).toBeLessThanOrEqual(4 + COMPONENTS + SETTINGS);
});
