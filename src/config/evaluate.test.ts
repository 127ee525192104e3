import { parseConfiguration } from './config';
import { evaluateArguments, lookupIn } from './evaluate';

const OWNER = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
const site = (name: string) => ({ owner_tenant_id: OWNER, name, url: 'https://site.example', capabilities: ['backup'] });

function configuration() {
  const { configuration, diagnostics } = parseConfiguration(
    { resource: { tenantform_infra_component: { plain: site('Plain'), templated: site('${upper("templated")}') } } },
    { file: 'main.tf.json', stack: 'main' },
  );
  expect(diagnostics).toEqual([]);
  return configuration!;
}

describe("an object's arguments as values", () => {
  it('arguments with nothing to evaluate are their own value, worked out once', () => {
    const c = configuration();
    const plain = c.objects.get('tenantform_infra_component.plain')!;
    const first = evaluateArguments(plain, lookupIn(c, new Map()));
    expect(first.config).toBe(plain.config);
    expect(first.diagnostics).toEqual([]);
    expect(evaluateArguments(plain, lookupIn(c, new Map()))).toBe(first);
  });

  it('a template is evaluated into a value of its own', () => {
    const c = configuration();
    const templated = c.objects.get('tenantform_infra_component.templated')!;
    const r = evaluateArguments(templated, lookupIn(c, new Map()));
    expect(r.config).not.toBe(templated.config);
    expect(r.config.name).toBe('TEMPLATED');
    expect(templated.config.name).toBe('${upper("templated")}');
  });
});
