/**
 * Damaged and hand-edited state files: each is refused with the file and the path inside it,
 * never a JavaScript TypeError, and never read as "the object is gone".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TenantformError } from '../errors';
import { StateStore } from './state';

const ID = '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f';
const valid = () => ({
  version: 4,
  terraform_version: '1.5.7',
  serial: 3,
  lineage: 'a2c4e6f8-0000-4000-8000-000000000000',
  outputs: {},
  resources: [
    {
      mode: 'managed',
      type: 'tenantform_infra_component',
      name: 'primary',
      provider: 'provider["registry.terraform.io/tenantform/tenantform"]',
      instances: [{ schema_version: 0, attributes: { id: ID, name: 'Primary' }, sensitive_attributes: [], dependencies: ['data.tenantform_tenant.acme'] }],
    },
  ],
  check_results: null,
});

type Doc = ReturnType<typeof valid> & Record<string, unknown>;
const edit = (f: (d: Doc) => void) => {
  const d = valid() as Doc;
  f(d);
  return JSON.stringify(d);
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenantform-state-schema-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(text: string): Promise<TenantformError> {
  const file = join(dir, 'terraform.main.tfstate');
  writeFileSync(file, text);
  try {
    await StateStore.open(file);
  } catch (e) {
    expect(e).toBeInstanceOf(TenantformError);
    return e as TenantformError;
  }
  throw new Error('expected the state to be refused');
}

it('reads a valid state', async () => {
  const file = join(dir, 'ok.tfstate');
  writeFileSync(file, JSON.stringify(valid()));
  expect((await StateStore.open(file)).objects()).toHaveLength(1);
});

const resource = (d: Doc) =>
  d.resources[0] as Record<string, unknown> & { instances: Array<Record<string, unknown> & { attributes: Record<string, unknown> }> };

it.each<[string, string, string]>([
  ['not JSON', '{"version": 4,', 'not JSON'],
  ['null', 'null', 'expected a JSON object, found null'],
  ['a list', '[]', 'expected a JSON object, found a list'],
  ['another format version', edit((d) => (d.version = 3 as 4)), 'at version: state format version 3'],
  ['a serial as text', edit((d) => (d.serial = '3' as never)), 'at serial: expected the serial number, found "3"'],
  ['no lineage', edit((d) => delete (d as Partial<Doc>).lineage), 'at lineage: expected the lineage'],
  ['resources not a list', edit((d) => (d.resources = {} as never)), 'at resources: expected a list of resources, found an object'],
  ['a resource that is null', edit((d) => (d.resources = [null as never])), 'at resources[0]'],
  ['an unknown mode', edit((d) => (resource(d).mode = 'imported')), 'at resources[0].mode: expected "managed" or "data", found "imported"'],
  [
    'a type that is no name',
    edit((d) => (resource(d).type = 'tenantform infra')),
    'at resources[0].type: expected a resource type (letters, digits, _ and -), found "tenantform infra"',
  ],
  ['a provider that is no address', edit((d) => (resource(d).provider = 7)), 'at resources[0].provider: expected a provider address, found 7'],
  [
    'an instance that is no object',
    edit((d) => (resource(d).instances = ['x' as never])),
    'at resources[0].instances[0]: expected an instance (an object), found "x"',
  ],
  [
    'sensitive attributes not a list',
    edit((d) => (resource(d).instances[0].sensitive_attributes = {})),
    'at resources[0].instances[0].sensitive_attributes: expected a list',
  ],
  [
    'a negative count index',
    edit((d) => ((resource(d).instances[0] as Record<string, unknown>).index_key = -1)),
    'at resources[0].instances[0].index_key: expected a count index or a for_each key, found -1',
  ],
  [
    'instances missing',
    edit((d) => delete (resource(d) as Partial<ReturnType<typeof resource>>).instances),
    'at resources[0].instances: expected a list of instances',
  ],
  ['no instance', edit((d) => (resource(d).instances = [])), 'at resources[0].instances: expected at least one instance'],
  [
    'an index key that is neither index nor key',
    edit((d) => ((resource(d).instances[0] as Record<string, unknown>).index_key = true)),
    'at resources[0].instances[0].index_key: expected a count index or a for_each key',
  ],
  [
    'attributes null',
    edit((d) => (resource(d).instances[0].attributes = null as never)),
    'at resources[0].instances[0].attributes: expected an object of attributes, found null',
  ],
  [
    'a null id',
    edit((d) => (resource(d).instances[0].attributes.id = null)),
    "at resources[0].instances[0].attributes.id: expected the object's id (a non-empty string), found null",
  ],
  ['an empty id', edit((d) => (resource(d).instances[0].attributes.id = '')), 'at resources[0].instances[0].attributes.id'],
  ['a numeric id', edit((d) => (resource(d).instances[0].attributes.id = 42)), 'found 42'],
  ['a schema version as text', edit((d) => (resource(d).instances[0].schema_version = 'zero')), 'at resources[0].instances[0].schema_version'],
  ['a dependency that is not an address', edit((d) => (resource(d).instances[0].dependencies = [7])), 'at resources[0].instances[0].dependencies[0]'],
  [
    'the same address twice',
    edit((d) => d.resources.push(structuredClone(d.resources[0]))),
    'at resources[1]: tenantform_infra_component.primary is recorded twice',
  ],
  ['pending creates not a list', edit((d) => (d.tenantform_pending = 'yes')), 'at tenantform_pending: expected a list of interrupted creates'],
  [
    'a pending create without attributes',
    edit((d) => (d.tenantform_pending = [{ address: 'tenantform_usage_report.r' }])),
    'at tenantform_pending[0].attributes',
  ],
  ['a protected address that is not one', edit((d) => (d.tenantform_protected = [true])), 'at tenantform_protected[0]'],
  ['protected as a boolean', edit((d) => (d.tenantform_protected = true)), 'at tenantform_protected: expected a list of protected addresses, found true'],
])('refuses %s, naming the file and the path', async (_what, text, expected) => {
  const e = await refusal(text);
  expect(e.summary).toBe('Cannot read the state');
  expect(e.detail).toContain(join(dir, 'terraform.main.tfstate'));
  expect(e.detail).toContain(expected);
});
