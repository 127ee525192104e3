import type { State } from '../resources/declaration';
import { parseConfiguration } from './config';
import { evaluateArguments, lookupIn } from './evaluate';

const OWNER = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
const component = (name: string) => ({ owner_tenant_id: OWNER, name, url: `https://${name}.example`, capabilities: ['backup'] });

/** A stack of many components, and one setting that names one of them. */
function stack(components: number) {
  const resources: Record<string, unknown> = {};
  for (let i = 0; i < components; i++) resources[`c_${i}`] = component(`c${i}`);
  const raw = {
    resource: {
      tenantform_infra_component: resources,
      tenantform_tenant_setting: {
        named: {
          application_id: OWNER,
          tenant_id: '${tenantform_infra_component.c_0.owner_tenant_id}',
          name: 'n',
          value: '${jsonencode(tenantform_infra_component.c_1.name)}',
        },
      },
    },
  };
  const { configuration, diagnostics } = parseConfiguration(raw, { file: 'main.tf.json', stack: 'main' });
  expect(diagnostics).toEqual([]);
  return configuration!;
}

/** Known values that count which objects' values were looked at. */
class CountingValues extends Map<string, State> {
  readonly read = new Set<string>();
  override get(address: string): State | undefined {
    this.read.add(address);
    return super.get(address);
  }
}

/** Evaluates one object of a stack of 50 components, counting whose values were looked at. */
function evaluatedIn50(address: string) {
  const configuration = stack(50);
  const values = new CountingValues([...configuration.objects.values()].map((o) => [o.address, { id: `id-${o.address}`, ...o.config }]));
  return { ...evaluateArguments(configuration.objects.get(address)!, lookupIn(configuration, values)), read: values.read };
}

describe('the names in scope of an expression', () => {
  it('evaluating a value that names no object looks at no object', () => {
    const { config, diagnostics, read } = evaluatedIn50('tenantform_infra_component.c_7');

    expect(diagnostics).toEqual([]);
    expect(config).toMatchObject({ name: 'c7' });
    expect([...read]).toEqual([]);
  });

  it('a reference looks at the objects of the type it names, and gets their values', () => {
    const { config, diagnostics, read } = evaluatedIn50('tenantform_tenant_setting.named');

    expect(diagnostics).toEqual([]);
    expect(config).toMatchObject({ tenant_id: OWNER, value: '"c1"' });
    expect([...read].every((a) => a.startsWith('tenantform_infra_component.'))).toBe(true);
    expect(read.has('tenantform_tenant_setting.named')).toBe(false);
  });
});
