import { resolve } from 'node:path';
import { parseConfiguration, type Configuration } from './config';
import { evaluateArguments, lookupIn } from './evaluate';
import { contextFor, evaluateValue } from './expression-scope';

/**
 * Module calls in a Terraform JSON stack (as cdktf's TerraformHclModule writes them): the
 * module folders are given already read, by folder, as the command reads them before loading.
 */
const ROOT = resolve('/stack');
const PARENT = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';

const required = { terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } } } };
const CUSTOMER = {
  ...required,
  variable: { name: {}, parent_id: {}, kind: { default: 'customer' }, note: { default: 'literal ${not.evaluated}' } },
  locals: { label: '${upper(var.name)}' },
  resource: {
    tenantform_tenant: { this: { parent_id: '${var.parent_id}', name: '${local.label}', kind: '${var.kind}', internal_tag: '${var.note}' } },
    tenantform_user: { admin: { tenant_id: '${tenantform_tenant.this.id}', login: '${lower(var.name)}-admin', email: 'it@example.com' } },
  },
  output: { tenant_id: { value: '${tenantform_tenant.this.id}' }, label: { value: '${local.label}' } },
};

function load(document: Record<string, unknown>, modules: Record<string, Record<string, unknown>> = { './customer': CUSTOMER }) {
  return parseConfiguration(document, {
    file: `${ROOT}/cdk.tf.json`,
    dir: ROOT,
    stack: 'stack',
    modules: new Map(Object.entries(modules).map(([source, doc]) => [resolve(ROOT, source), doc])),
  });
}

function loaded(document: Record<string, unknown>, modules?: Record<string, Record<string, unknown>>): Configuration {
  const { configuration, diagnostics } = load(document, modules);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return configuration!;
}

/** An object's arguments as the plan sees them before anything is applied. */
function argumentsOf(configuration: Configuration, address: string): Record<string, unknown> {
  return evaluateArguments(configuration.objects.get(address)!, lookupIn(configuration, new Map())).config;
}

describe('module calls', () => {
  it('gives each instance of a counted call its objects, its arguments and its defaults', () => {
    const configuration = loaded({
      variable: { names: { default: ['Contoso', 'Fabrikam'] } },
      module: { customer: { source: './customer', count: '${length(var.names)}', name: '${var.names[count.index]}', parent_id: PARENT } },
    });
    expect([...configuration.objects.keys()].sort()).toEqual([
      'module.customer[0].tenantform_tenant.this',
      'module.customer[0].tenantform_user.admin',
      'module.customer[1].tenantform_tenant.this',
      'module.customer[1].tenantform_user.admin',
    ]);
    expect(argumentsOf(configuration, 'module.customer[1].tenantform_tenant.this')).toMatchObject({
      parent_id: PARENT,
      name: 'FABRIKAM',
      kind: 'customer',
      internal_tag: 'literal ${not.evaluated}',
    });
    expect(argumentsOf(configuration, 'module.customer[0].tenantform_user.admin')).toMatchObject({ login: 'contoso-admin' });
    // The admin waits for its own instance's tenant, not the other's.
    const admin = configuration.objects.get('module.customer[0].tenantform_user.admin')!;
    expect(admin.references.map((r) => r.target)).toEqual(['module.customer[0].tenantform_tenant.this']);
    expect(admin.module).toBe('module.customer[0]');
  });

  it('reads outputs of one instance, and of the whole call, and waits on what they name', () => {
    const configuration = loaded({
      variable: { customers: { default: { contoso: 'Contoso', fabrikam: 'Fabrikam' } } },
      module: { customer: { source: './customer', for_each: '${var.customers}', name: '${each.value}', parent_id: PARENT } },
      resource: {
        tenantform_tenant_setting: {
          contoso: { tenant_id: '${module.customer["contoso"].tenant_id}', application_id: PARENT, name: 'retention_days', value: '30' },
        },
      },
      output: { labels: { value: '${{ for k, m in module.customer : k => m.label }}' } },
    });
    const setting = configuration.objects.get('tenantform_tenant_setting.contoso')!;
    expect(setting.throughLocals).toEqual(['module.customer["contoso"].tenantform_tenant.this']);
    const labels = evaluateValue(configuration.outputs.get('labels')!.value, contextFor(configuration, new Map()), 'output.labels');
    expect(labels.value).toEqual({ contoso: 'CONTOSO', fabrikam: 'FABRIKAM' });
  });

  it('makes depends_on on a call wait for everything inside it, and passes providers', () => {
    const configuration = loaded({
      provider: { tenantform: [{}, { alias: 'eu' }] },
      module: {
        first: { source: './customer', name: 'First', parent_id: PARENT, providers: { tenantform: '${tenantform.eu}' } },
        second: { source: './customer', name: 'Second', parent_id: PARENT, depends_on: ['${module.first}'] },
      },
    });
    expect(configuration.objects.get('module.first.tenantform_tenant.this')!.provider).toBe('tenantform.eu');
    expect(configuration.objects.get('module.second.tenantform_tenant.this')!.provider).toBe('tenantform');
    expect([...configuration.objects.get('module.second.tenantform_user.admin')!.dependsOn].sort()).toEqual([
      'module.first.tenantform_tenant.this',
      'module.first.tenantform_user.admin',
    ]);
  });

  it('names the call of every problem: unknown variables, missing arguments, remote sources, undeclared names, cycles', () => {
    const broken = { ...CUSTOMER, locals: { label: '${upper(var.nmae)}' } };
    const { configuration, diagnostics } = load(
      {
        module: {
          a: { source: './customer', parent_id: PARENT, nmae: 'x' },
          b: { source: 'example/customer/tenantform' },
          c: { source: './missing' },
          d: { source: './loop' },
        },
      },
      { './customer': broken, './loop': { module: { again: { source: './' } } } },
    );
    expect(configuration).toBeUndefined();
    const problems = diagnostics.map((d) => `${d.address}: ${d.summary}: ${d.detail}`);
    expect(problems).toHaveLength(6);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('module.a: Unsupported argument: The module module.a has no variable "nmae"'),
        expect.stringContaining('Did you mean "name"?'),
        expect.stringContaining('module.a: Missing required argument: The module module.a needs "name"'),
        expect.stringContaining('module.a: Reference to undeclared name: var.nmae is not declared in module.a'),
        expect.stringContaining('module.b: Unsupported module source'),
        expect.stringContaining('module.c: Module not found'),
        expect.stringContaining(
          'module.d.module.again: Module calls itself: module.d.module.again calls "./", the module it is in: module.d → module.d.module.again',
        ),
      ]),
    );
  });

  it("converts each argument to its variable's type, marks sensitive variables and outputs, and names an argument the type cannot take", () => {
    const typed = {
      variable: { size: { type: '${number}' }, tags: { type: '${set(string)}' }, token: { sensitive: true } },
      output: {
        size: { value: '${var.size + 1}' },
        tags: { value: '${var.tags}', sensitive: true },
        token: { value: '${var.token}' },
      },
    };
    const configuration = loaded(
      { module: { m: { source: './typed', size: '41', tags: ['b', 'a', 'b'], token: 'secret' } }, output: { all: { value: '${module.m}' } } },
      { './typed': typed },
    );
    const all = evaluateValue(configuration.outputs.get('all')!.value, contextFor(configuration, new Map()), 'output.all');
    expect(all.value).toEqual({ size: 42, tags: ['a', 'b'], token: 'secret' });
    expect(all.sensitive).toEqual([['tags'], ['token']]);

    const { diagnostics } = load({ module: { m: { source: './typed', size: 'forty', tags: [], token: 'x' } } }, { './typed': typed });
    expect(diagnostics.map((d) => `${d.address}: ${d.detail}`)).toEqual([
      'module.m: The module module.m takes "size" as its variable declares it: a number is required.',
    ]);
  });

  it("checks a variable's validation rules: when the configuration is read if the value is known, else as preconditions of the resources that use it", () => {
    const checked = {
      ...CUSTOMER,
      variable: {
        ...CUSTOMER.variable,
        name: { validation: [{ condition: '${length(var.name) <= 8}', error_message: 'A name has at most 8 characters, not ${length(var.name)}.' }] },
        parent_id: { validation: { condition: '${length(var.parent_id) == 36}', error_message: 'The parent is a tenant id.' } },
      },
    };
    const { diagnostics } = load({ module: { m: { source: './customer', name: 'ContosoLimited', parent_id: PARENT } } }, { './customer': checked });
    expect(diagnostics.map((d) => `${d.address}: ${d.detail}`)).toEqual([
      'module.m: A name has at most 8 characters, not 14. (the module module.m checks "name" with a validation rule)',
    ]);

    const configuration = loaded(
      {
        resource: { tenantform_tenant: { partner: { parent_id: PARENT, name: 'Partner', kind: 'partner' } } },
        module: { m: { source: './customer', name: 'Contoso', parent_id: '${tenantform_tenant.partner.id}' } },
      },
      { './customer': checked },
    );
    // The parent's id is known only once the partner exists: its rule waits on the tenant that uses it (and each rule on the resources using its variable).
    const rules = (address: string) => configuration.objects.get(address)!.conditions.pre.map((p) => p.errorMessage);
    expect(rules('module.m.tenantform_tenant.this')).toEqual(['The parent is a tenant id.']);
    expect(rules('module.m.tenantform_user.admin')).toEqual(['A name has at most 8 characters, not ${length(local["module.m.var.name"])}.']);
  });

  it('imports into an object of a module: the address in `to` is kept as written', () => {
    const configuration = loaded({
      variable: { customers: { default: { contoso: 'Contoso' } } },
      module: { customer: { source: './customer', for_each: '${var.customers}', name: '${each.value}', parent_id: PARENT } },
      import: [{ to: '${module.customer["contoso"].tenantform_tenant.this}', id: PARENT }],
    });
    expect(configuration.imports.map((i) => [i.to, i.id])).toEqual([['module.customer["contoso"].tenantform_tenant.this', PARENT]]);
  });

  it('leaves a stack without module calls as it is', () => {
    const document = { resource: { tenantform_tenant: { a: { parent_id: PARENT, name: 'A', kind: 'customer' } } } };
    expect([...loaded(document).objects.keys()]).toEqual(['tenantform_tenant.a']);
  });
});

describe("a saved plan's configuration hash", () => {
  const call = (name: string) => ({ module: { customer: { source: './customer', name, parent_id: PARENT } } });

  it("changes with a module's blocks and with a call's arguments, as with the root's blocks", () => {
    const planned = loaded(call('Contoso')).hash;
    expect(loaded(call('Contoso')).hash).toBe(planned);
    // A call's argument changed: the module's objects change with it.
    expect(loaded(call('Fabrikam')).hash).not.toBe(planned);
    // The module's own resource changed, the root as it was.
    const edited = {
      ...CUSTOMER,
      resource: { ...CUSTOMER.resource, tenantform_user: { admin: { ...CUSTOMER.resource.tenantform_user.admin, email: 'ops@example.com' } } },
    };
    expect(loaded(call('Contoso'), { './customer': edited }).hash).not.toBe(planned);
  });
});
