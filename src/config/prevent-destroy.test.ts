import { parseConfiguration } from './config';

const at = { file: 'main.tf.json', stack: 'main' };
const withLifecycle = (lifecycle: Record<string, unknown>) => ({
  resource: {
    tenantform_infra_component: {
      primary: { owner_tenant_id: '91bd10dc-703c-44b6-b7a0-2aa91d1446fb', name: 'Storage', url: 'https://s.example.com', capabilities: ['backup'], lifecycle },
    },
  },
});

it.each([['yes'], [1], [['true']], [{}]])('refuses a prevent_destroy that is not true or false (%j), naming the address', (value) => {
  const { configuration, diagnostics } = parseConfiguration(withLifecycle({ prevent_destroy: value }), at);
  expect(configuration).toBeUndefined();
  expect(diagnostics).toEqual([
    expect.objectContaining({
      severity: 'error',
      address: 'tenantform_infra_component.primary',
      path: ['lifecycle.prevent_destroy'],
      detail: 'Expected true or false.',
    }),
  ]);
});

it('accepts true, false and nothing', () => {
  for (const [lifecycle, expected] of [
    [{ prevent_destroy: true }, true],
    [{ prevent_destroy: false }, false],
    [{}, false],
  ] as const) {
    const { configuration } = parseConfiguration(withLifecycle(lifecycle), at);
    expect(configuration!.objects.get('tenantform_infra_component.primary')!.preventDestroy).toBe(expected);
  }
});
