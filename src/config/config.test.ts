import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dependencies, loadConfiguration, locateConfiguration, parseConfiguration } from './config';

const at = { file: 'main.tf.json', stack: 'main' };
const TENANT = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';

const valid = {
  '//': { metadata: { version: '0.21.0' } },
  provider: { tenantform: [{ base_url: 'http://localhost:1' }] },
  data: { tenantform_tenant: { acme: { '//': { metadata: { path: 'x' } }, name: 'Acme' } } },
  resource: {
    tenantform_infra_component: {
      primary: {
        '//': { metadata: { path: 'stack/primary' } },
        owner_tenant_id: '${data.tenantform_tenant.acme.id}',
        name: 'Storage',
        url: 'https://s.example.com',
        capabilities: ['backup'],
        lifecycle: { ignore_changes: ['name'], prevent_destroy: true },
      },
    },
    tenantform_tenant_setting: {
      window: {
        application_id: TENANT,
        tenant_id: '${data.tenantform_tenant.acme.id}',
        name: 'w',
        value: '1',
        depends_on: ['tenantform_infra_component.primary'],
      },
    },
  },
};

describe('configuration', () => {
  it('refuses a resource that refers to itself, naming the attribute, as Terraform does', () => {
    const doc = structuredClone(valid);
    (doc.resource.tenantform_infra_component.primary as Record<string, unknown>).url = 'https://${tenantform_infra_component.primary.name}.example.com';
    const { diagnostics } = parseConfiguration(doc, at);
    expect(diagnostics.map((d) => [d.address, d.path, d.summary])).toEqual([['tenantform_infra_component.primary', ['url'], 'Self-referential block']]);
  });

  it('refuses an object of blocks that holds none, as Terraform does ("Missing block label")', () => {
    const { diagnostics } = parseConfiguration({ ...structuredClone(valid), variable: {}, data: {}, resource: { tenantform_tenant: {} } }, at);
    expect(diagnostics.map((d) => [d.address, d.summary, d.detail])).toEqual([
      ['variable', 'Missing block label', `"variable" holds no block: at least one property is required, whose name is the variable block's name.`],
      [
        'resource.tenantform_tenant',
        'Missing block label',
        `"resource.tenantform_tenant" holds no block: at least one property is required, whose name is the resource block's name.`,
      ],
      ['data', 'Missing block label', `"data" holds no block: at least one property is required, whose name is the data block's type.`],
    ]);
  });

  it('refuses an output without a value, as Terraform does; a null value is a value', () => {
    const { diagnostics } = parseConfiguration({ ...structuredClone(valid), output: { o: { description: 'x' }, n: { value: null } } }, at);
    expect(diagnostics.map((d) => [d.address, d.summary, d.detail])).toEqual([
      ['output.o', 'Missing required argument', 'The argument "value" is required, but no definition was found.'],
    ]);
  });

  it('reads resources, data sources, meta-arguments and the provider block, ignoring cdktf metadata', () => {
    const { configuration, diagnostics } = parseConfiguration(structuredClone(valid), at);
    expect(diagnostics).toEqual([]);
    expect(configuration!.provider).toEqual({ base_url: 'http://localhost:1' });
    const primary = configuration!.objects.get('tenantform_infra_component.primary')!;
    expect(primary.config).not.toHaveProperty('//');
    expect(primary.config).not.toHaveProperty('lifecycle');
    expect(primary).toMatchObject({ mode: 'managed', ignoreChanges: ['name'], preventDestroy: true });
    expect(configuration!.objects.get('data.tenantform_tenant.acme')!.mode).toBe('data');
    const deps = dependencies(configuration!);
    expect([...deps.get('tenantform_tenant_setting.window')!].sort()).toEqual(['data.tenantform_tenant.acme', 'tenantform_infra_component.primary']);
  });

  it('refuses every top-level block its plan does not carry out, by name, instead of passing over it', () => {
    const blocks = {
      ephemeral: { tenantform_token: { x: {} } },
      action: { tenantform_dismiss_alerts: { x: { config: { alert_ids: [] } } } },
      resources: {},
    };
    const { configuration, diagnostics } = parseConfiguration({ ...structuredClone(valid), ...blocks }, at);
    expect(configuration).toBeUndefined();
    expect(diagnostics.map((d) => [d.code, d.address, d.summary])).toEqual(
      Object.keys(blocks).map((b) => ['unsupported_block', b, `Unsupported block type "${b}"`]),
    );
    expect(diagnostics.find((d) => d.address === 'ephemeral')!.detail).toContain('terraform plan');
    expect(diagnostics.find((d) => d.address === 'action')!.detail).toContain('terraform plan');
    expect(diagnostics.find((d) => d.address === 'resources')!.detail).toContain('not a block of the Terraform language');
  });

  it('checks moved and removed blocks as Terraform does, each problem named by its block', () => {
    const blocks = {
      moved: [
        { from: 'tenantform_infra_component.primary', to: 'tenantform_infra_component.other' },
        { from: 'tenantform_infra_component.old', to: 'tenantform_tenant_setting.old' },
        { from: 'tenantform_infra_component.gone', to: 'tenantform_infra_component.primary', frobnicate: true },
      ],
      removed: [
        { from: 'tenantform_infra_component.gone[0]', lifecycle: { destroy: false } },
        { from: 'tenantform_infra_component.primary', lifecycle: { destroy: false } },
        { from: 'tenantform_infra_component.gone', lifecycle: { destroy: 'no' } },
      ],
    };
    const { diagnostics } = parseConfiguration({ ...structuredClone(valid), ...blocks }, at);
    expect(diagnostics.map((d) => [d.address, d.detail])).toEqual([
      ['moved[0]', expect.stringContaining('tenantform_infra_component.primary is still declared')],
      ['moved[1]', expect.stringContaining('an object keeps its resource type')],
      ['moved[2]', expect.stringContaining('not `frobnicate`')],
      ['removed[0]', expect.stringContaining('without an instance key')],
      ['removed[1]', expect.stringContaining('still declared')],
      ['removed[2]', expect.stringContaining('`lifecycle.destroy` is true or false')],
    ]);
  });

  it('hashes the configuration without metadata, so a re-synth with new metadata is the same configuration', () => {
    const a = parseConfiguration(structuredClone(valid), at).configuration!.hash;
    const moved = structuredClone(valid);
    moved['//'].metadata.version = '0.22.0';
    moved.provider.tenantform[0].base_url = 'http://elsewhere';
    expect(parseConfiguration(moved, at).configuration!.hash).toBe(a);
    const changed = structuredClone(valid);
    changed.resource.tenantform_tenant_setting.window.value = '2';
    expect(parseConfiguration(changed, at).configuration!.hash).not.toBe(a);
  });

  it('reports every problem at once, each with its address and attribute path', () => {
    const doc = {
      resource: {
        tenantform_infra_component: {
          a: { owner_tenant_id: 'not-a-uuid', name: '', url: 'ftp:', capabilities: ['teleport'], colour: 'red' },
          b: { provisioner: [{ 'local-exec': {} }], owner_tenant_id: TENANT, name: 'x', url: 'https://x', capabilities: [] },
          c: { for_each: ['a'] },
        },
        tenantform_tenant_setting: { s: { application_id: TENANT, tenant_id: '${tenantform_nothing.here.id}', name: 'n', value: '${var.v}' } },
        tenantform_spaceship: { x: {} },
      },
    };
    const { configuration, diagnostics } = parseConfiguration(doc, at);
    expect(configuration).toBeUndefined();
    const where = diagnostics.map((d) => `${d.address} ${(d.path ?? []).join('.')} ${d.code}`);
    expect(where).toEqual(
      expect.arrayContaining([
        'tenantform_infra_component.a owner_tenant_id invalid_value',
        'tenantform_infra_component.a name too_small',
        'tenantform_infra_component.a url invalid_value',
        'tenantform_infra_component.a capabilities.0 invalid_value',
        'tenantform_infra_component.a colour unknown_attribute',
        'tenantform_infra_component.b provisioner unsupported_meta_argument',
        'tenantform_infra_component.c for_each invalid_repetition',
        'tenantform_tenant_setting.s value unknown_reference',
        'tenantform_spaceship.x  unknown_type',
      ]),
    );
    expect(diagnostics.find((d) => d.code === 'unsupported_meta_argument')!.detail).toContain('cdktf deploy');
  });

  it('refuses references to undeclared objects and attributes', () => {
    const doc = structuredClone(valid);
    const window: Record<string, unknown> = doc.resource.tenantform_tenant_setting.window;
    window.tenant_id = '${data.tenantform_tenant.other.id}';
    window.name = '${tenantform_infra_component.primary.colour}';
    window.depends_on = ['tenantform_infra_component.missing'];
    const codes = parseConfiguration(doc, at).diagnostics.map((d) => `${d.code} ${(d.path ?? []).join('.')}`);
    expect(codes).toEqual(['unknown_reference tenant_id', 'unknown_attribute_reference name', 'unknown_reference depends_on']);
  });

  it('refuses expressions in the provider block and a provider block as an object works', () => {
    const doc = { provider: { tenantform: { client_secret: '${var.secret}' } } };
    const d = parseConfiguration(doc, at).diagnostics;
    expect(d[0]).toMatchObject({ code: 'unsupported_expression', address: 'provider.tenantform', path: ['client_secret'] });
    expect(parseConfiguration({ provider: { tenantform: { client_id: 'c' } } }, at).configuration!.provider).toEqual({ client_id: 'c' });
  });

  describe('hardening', () => {
    const infraWith = (extra: Record<string, unknown>) => ({
      data: { tenantform_tenant: { a: { name: 'A' } } },
      resource: { tenantform_infra_component: { c: { owner_tenant_id: TENANT, name: 'n', url: 'https://x', capabilities: [], ...extra } } },
    });
    const where = (doc: unknown) =>
      parseConfiguration(doc as Record<string, unknown>, at).diagnostics.map((d) => `${d.address} ${(d.path ?? []).join('.')} ${d.code}`);

    it('names the entry of ignore_changes that is no attribute, and the attribute it likely meant', () => {
      const [problem] = parseConfiguration(infraWith({ lifecycle: { ignore_changes: ['name', 'contentUrl'] } }), at).diagnostics;
      expect(problem).toMatchObject({ address: 'tenantform_infra_component.c', path: ['lifecycle', 'ignore_changes', 1], code: 'unknown_attribute' });
      expect(problem.detail).toContain(
        'ignore_changes[1] is "contentUrl", which is not an attribute of tenantform_infra_component. Did you mean "content_url"?',
      );
    });

    it('never takes what every JavaScript object has for an attribute', () => {
      expect(where(infraWith({ name: '${data.tenantform_tenant.a.toString}' }))).toEqual(['tenantform_infra_component.c name unknown_attribute_reference']);
      expect(where(infraWith({ name: '${data.tenantform_tenant.a.constructor}' }))).toEqual(['tenantform_infra_component.c name unknown_attribute_reference']);
      expect(where(infraWith({ lifecycle: { ignore_changes: ['constructor'] } }))).toEqual([
        'tenantform_infra_component.c lifecycle.ignore_changes.0 unknown_attribute',
      ]);
      expect(where(infraWith({ hasOwnProperty: 'x' }))).toEqual(['tenantform_infra_component.c hasOwnProperty unknown_attribute']);
      // Parsed from text, as the file is: `__proto__` is then an ordinary key.
      const doc = JSON.parse('{"provider":{"tenantform":{"__proto__":{"base_url":"http://elsewhere"},"client_id":"c"}}}') as Record<string, unknown>;
      expect(where(doc)).toEqual(['provider.tenantform __proto__ unknown_attribute']);
      const nested = JSON.parse(JSON.stringify(infraWith({})).replace('"capabilities":[]', '"capabilities":[],"__proto__":{"name":"x"}')) as Record<
        string,
        unknown
      >;
      expect(where(nested)).toEqual(['tenantform_infra_component.c __proto__ unknown_attribute']);
    });

    it('checks the provider block: known arguments of the right type', () => {
      expect(where({ provider: { tenantform: [{ base_url: 'http://x', region: 'eu', client_id: 7 }] } })).toEqual([
        'provider.tenantform region unknown_attribute',
        'provider.tenantform client_id invalid_type',
      ]);
    });

    it('never quotes a sensitive provider argument, not even a malformed one', () => {
      const secret = 'pa55${word';
      const d = parseConfiguration({ provider: { tenantform: [{ client_secret: secret }] } }, at).diagnostics;
      expect(d).toHaveLength(1);
      expect(d[0]).toMatchObject({ code: 'unsupported_expression', address: 'provider.tenantform', path: ['client_secret'] });
      expect(JSON.stringify(d)).not.toContain('pa55');
      expect(JSON.stringify(d)).not.toContain('word');
      const typed = parseConfiguration({ provider: { tenantform: [{ client_secret: ['pa55word'] }] } }, at).diagnostics;
      expect(typed[0]).toMatchObject({ code: 'invalid_type', path: ['client_secret'] });
      expect(JSON.stringify(typed)).not.toContain('pa55word');
    });

    it('refuses a document nested too deeply with the address and path where it does', () => {
      const text = JSON.stringify(infraWith({})).replace('"capabilities":[]', `"capabilities":${'['.repeat(10_000)}${']'.repeat(10_000)}`);
      const d = parseConfiguration(JSON.parse(text) as Record<string, unknown>, at).diagnostics;
      expect(d).toHaveLength(1);
      expect(d[0]).toMatchObject({ code: 'nested_too_deeply', address: 'tenantform_infra_component.c' });
      expect(d[0].path!.slice(0, 3)).toEqual(['capabilities', 0, 0]);
    });
  });

  describe('limits', () => {
    it('takes a chain of 10,000 locals without running out of stack, and still finds a cycle in one', () => {
      const chain: Record<string, string> = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`l${i}`, `\${local.l${i + 1}}`]));
      chain.l10000 = 'end';
      expect(parseConfiguration({ ...valid, locals: chain }, at).diagnostics).toEqual([]);
      const cycle = parseConfiguration({ ...valid, locals: { ...chain, l10000: '${local.l0}' } }, at).diagnostics;
      expect(cycle).toEqual([expect.objectContaining({ code: 'cycle' })]);
    });

    it('refuses the variable names Terraform refuses: reserved ones and those not an identifier', () => {
      const d = parseConfiguration({ ...valid, variable: { count: {}, '1abc': {}, source: {}, region: { default: 'eu' } } }, at).diagnostics;
      expect(d.map((p) => [p.code, p.address])).toEqual([
        ['invalid_variable_name', 'var.count'],
        ['invalid_variable_name', 'var.1abc'],
        ['invalid_variable_name', 'var.source'],
      ]);
      expect(d[0].detail).toContain('is reserved due to its special meaning inside module blocks');
      expect(d[1].detail).toContain('must start with a letter or underscore');
    });

    it('refuses a count no block can hold, naming the address', () => {
      const doc = JSON.parse(JSON.stringify(valid)) as { resource: Record<string, Record<string, Record<string, unknown>>> };
      const [type, blocks] = Object.entries(doc.resource)[0];
      const [name, body] = Object.entries(blocks)[0];
      body.count = 1_000_000_000_000;
      const d = parseConfiguration(doc, at).diagnostics.filter((p) => p.address === `${type}.${name}`);
      expect(d).toEqual([expect.objectContaining({ path: ['count'], detail: expect.stringContaining('at most 1,000,000 instances') })]);
    });
  });

  describe('location', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'tenantform-config-'));
      writeFileSync(join(dir, 'cdktf.json'), JSON.stringify({ app: 'x', output: 'out' }));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const synth = (stack: string) => {
      mkdirSync(join(dir, 'out/stacks', stack), { recursive: true });
      writeFileSync(join(dir, 'out/stacks', stack, 'cdk.tf.json'), JSON.stringify(valid));
    };

    it('picks the only stack and puts the state beside cdktf.json', () => {
      synth('prod');
      const loc = locateConfiguration({ cwd: dir });
      expect(loc).toEqual({
        file: join(dir, 'out/stacks/prod/cdk.tf.json'),
        source: 'file',
        dir: join(dir, 'out/stacks/prod'),
        stack: 'prod',
        defaultState: join(dir, 'terraform.prod.tfstate'),
        varFiles: [],
      });
      expect(loadConfiguration(loc).configuration!.stack).toBe('prod');
    });

    it('asks for --stack when there are several, and says what exists', () => {
      synth('prod');
      synth('staging');
      expect(() => locateConfiguration({ cwd: dir })).toThrow('--stack prod');
      expect(() => locateConfiguration({ cwd: dir, stack: 'dev' })).toThrow('found: prod, staging');
      expect(locateConfiguration({ cwd: dir, stack: 'staging' }).stack).toBe('staging');
    });

    it('says to run cdktf synth when nothing was synthesized, and takes --config instead', () => {
      expect(() => locateConfiguration({ cwd: dir })).toThrow('cdktf synth');
      writeFileSync(join(dir, 'hand.tf.json'), '{ not json');
      const loc = locateConfiguration({ cwd: dir, config: 'hand.tf.json' });
      expect(loc.defaultState).toBe(join(dir, 'terraform.hand.tfstate'));
      expect(() => loadConfiguration(loc)).toThrow('Cannot read the configuration');
    });
  });
});
