/**
 * `check` blocks on the native path: assertions evaluated after the plan and again after apply,
 * a failed one a warning with its message that never stops the run, as the real `terraform`
 * with tenantform's provider reports it on the same configuration and state.
 */
import { REQUIRED_PROVIDERS, startOracle, type Oracle } from '../helpers/oracle';
import { configWith, infra, writeConfig, type World } from './helpers';

jest.setTimeout(180_000);

describe('check blocks', () => {
  let world: World;
  let oracle: Oracle;
  const config = (checks: Record<string, unknown>, sites: Record<string, unknown> = { primary: infra('Checked Site') }): Record<string, unknown> => ({
    ...configWith({ tenantform_infra_component: sites }),
    terraform: REQUIRED_PROVIDERS,
    check: checks,
  });
  const nameIs = (expected: string) => ({
    assert: [
      {
        condition: `\${tenantform_infra_component.primary.name == "${expected}"}`,
        error_message: `The site is \${tenantform_infra_component.primary.name}, not ${expected}.`,
      },
    ],
  });

  beforeAll(async () => {
    oracle = await startOracle('checks', config({ named: nameIs('Checked Site') }));
    world = oracle.world;
    expect((await oracle.tenantform('apply', '--auto-approve')).code).toBe(0);
  });
  afterAll(() => world.close());

  it('a failed assertion is a warning with its message on both paths, after the plan and after the apply; the run succeeds', async () => {
    writeConfig(world, config({ named: nameIs('Checked Site'), renamed: nameIs('Another Name') }));
    const native = await oracle.tenantform('plan', '--detailed-exitcode');
    const viaTerraform = await oracle.terraform('plan', '-detailed-exitcode');
    for (const text of [native.stdout + native.stderr, viaTerraform.output]) {
      expect(text).toContain('Check block assertion failed');
      expect(text).toContain('The site is Checked Site, not Another Name.');
      expect(text).not.toContain('not Checked Site.');
    }
    expect(native.code).toBe(0);
    expect(viaTerraform.code).toBe(0);

    const applied = await oracle.tenantform('apply', '--auto-approve');
    expect(applied.code).toBe(0);
    expect((applied.stdout + applied.stderr).match(/Check block assertion failed/g)).toHaveLength(2);
    expect(applied.stdout).toContain('Apply complete!');
  });

  it('passes silently when every assertion holds, and a check of a value known only after apply waits for it', async () => {
    const pending = {
      assert: { condition: '${tenantform_infra_component.later.id != ""}', error_message: 'The later site has no id.' },
    };
    writeConfig(world, config({ named: nameIs('Checked Site'), later: pending }, { primary: infra('Checked Site'), later: infra('Later Site') }));
    const native = await oracle.tenantform('plan');
    expect(native.code).toBe(0);
    expect(native.stdout + native.stderr).not.toContain('Check block assertion');
    const applied = await oracle.tenantform('apply', '--auto-approve');
    expect(applied.code).toBe(0);
    expect(applied.stdout + applied.stderr).not.toContain('Check block assertion');
  });

  it('refuses a scoped data source and an assert without its message, naming the check', async () => {
    writeConfig(world, config({ scoped: { data: { tenantform_tenant: { x: { name: 'Acme' } } }, assert: { condition: '${true}' } } }));
    const r = await oracle.tenantform('validate');
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("check.scoped: a check block's scoped data source is not read by tenantform's own plan");
    expect(r.stdout + r.stderr).toContain('check.scoped: an `assert` block takes `condition` and `error_message`, both required.');
  });
});
