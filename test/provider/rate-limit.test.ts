/**
 * `terraform apply` under the platform's rate limit: terraform calls the provider for ten
 * objects at once, and every call's requests share the provider process's one budget for the
 * data center and API client. The budget learns the limit from the first 429s and then keeps
 * the whole process near it: each object is made once, the command succeeds, and the emulator
 * refuses a small share of the requests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { infraComponentsHcl, leftoverProviders, run, useTerraformStack, PROVIDER_HCL } from './helpers';

jest.setTimeout(240_000);

const COMPONENTS = 40;

const MAIN_TF = `${PROVIDER_HCL}
data "tenantform_tenant" "northwind" {
  name = "Northwind Partner"
}

${infraComponentsHcl('limited', COMPONENTS, 'data.tenantform_tenant.northwind.id', 'Limited')}`;

/** The emulator's answers, in order: `METHOD path status`. */
const answers: string[] = [];
const stack = useTerraformStack({ name: 'provider-rate', seed: 9, mainTf: MAIN_TF, log: (line) => answers.push(line.split(' ').slice(0, 3).join(' ')) });

test('terraform apply of 40 objects under a limit of 8 requests a second: each made once, a small share refused', async () => {
  const { emulator, dir, env } = stack;
  answers.length = 0;
  emulator.setFaults({ limit_per_second: 8, limit_burst: 4 });
  const apply = await run('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], { cwd: dir, env }).finally(() =>
    emulator.setFaults({ limit_per_second: 0, limit_burst: 0 }),
  );
  expect(apply.output).toContain(`Apply complete! Resources: ${COMPONENTS} added, 0 changed, 0 destroyed.`);
  expect(apply.code).toBe(0);
  expect(await leftoverProviders(stack.marker)).toEqual([]);

  // Each object made once: one accepted create each, and one each in the state.
  expect(answers.filter((a) => a === 'POST /api/2/infra 201')).toHaveLength(COMPONENTS);
  const state = JSON.parse(readFileSync(join(dir, 'terraform.tfstate'), 'utf8')) as { resources: Array<{ type: string; instances: unknown[] }> };
  expect(state.resources.find((r) => r.type === 'tenantform_infra_component')?.instances).toHaveLength(COMPONENTS);

  const api = answers.filter((a) => a.split(' ')[1].startsWith('/api/') && !a.includes('/idp/token'));
  const refused = api.filter((a) => a.endsWith(' 429'));
  expect(refused).toHaveLength(emulator.refusedByLimit());
  expect(refused.length).toBeGreaterThan(0); // the limit was met
  // One budget for the process: what one call learns holds back the others. With a budget per
  // call, each of terraform's ten concurrent calls would meet the limit on its own (more than
  // half of all requests refused); with one, the first round trip and the learnt rate's slow
  // rise towards the limit cost a few.
  expect(refused.length / api.length).toBeLessThan(0.25);

  // The provider Terraform launches next in this working directory starts below the limit met.
  const remembered = JSON.parse(readFileSync(join(dir, '.terraform', 'tenantform-rate-limits.json'), 'utf8')) as Record<string, { per_second: number }>;
  expect(Object.values(remembered)).toEqual([expect.objectContaining({ per_second: expect.any(Number) })]);
});
