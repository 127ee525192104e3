/**
 * Damaged and hand-edited plan files: each is refused with the file and the path inside it,
 * never a JavaScript TypeError, and a plan whose actions are not actions never applies.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TenantformError } from '../errors';
import { loadPlan } from './planfile';

const change = () => ({
  address: 'tenantform_infra_component.primary',
  mode: 'managed',
  type: 'tenantform_infra_component',
  name: 'primary',
  action: 'create',
  before: null,
  after: { id: { $tenantform: 'unknown' }, name: 'Primary' },
  requiresReplace: [],
  changed: ['name'],
  sensitive: [],
  identifying: [],
});
const valid = () => ({
  format: 'tenantform-plan',
  version: 1,
  plan: {
    stack: 'main',
    configHash: 'abc',
    priorState: null,
    changes: [change()],
    drift: [],
    diagnostics: [],
    refreshOnly: false,
    createdAt: '2026-01-01T00:00:00Z',
  },
  data: { 'data.tenantform_tenant.acme': { id: 'x' } },
});

type Doc = ReturnType<typeof valid> & Record<string, unknown>;
type Change = Record<string, unknown>;
const edit = (f: (d: Doc, c: Change) => void) => {
  const d = valid() as Doc;
  f(d, d.plan.changes[0]);
  return JSON.stringify(d);
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenantform-plan-schema-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(text: string): TenantformError {
  const file = join(dir, 'tf.plan');
  writeFileSync(file, text);
  try {
    loadPlan(file);
  } catch (e) {
    expect(e).toBeInstanceOf(TenantformError);
    return e as TenantformError;
  }
  throw new Error('expected the plan file to be refused');
}

it('reads a valid plan file', () => {
  const file = join(dir, 'ok.plan');
  writeFileSync(file, JSON.stringify(valid()));
  expect(loadPlan(file).plan.changes).toHaveLength(1);
});

it.each<[string, string, string]>([
  ['not JSON', '{', 'in JSON at position 1'],
  ['null', 'null', 'expected a JSON object, found null'],
  ['another format', edit((d) => (d.format = 'terraform' as never)), 'at format: expected "tenantform-plan", found "terraform"'],
  ['another version', edit((d) => (d.version = 2 as never)), 'at version: plan file version 2'],
  ['no plan', edit((d) => delete (d as Partial<Doc>).plan), 'at plan: expected the plan (an object), found undefined'],
  ['changes not a list', edit((d) => (d.plan.changes = 'all' as never)), 'at plan.changes: expected a list of changes, found "all"'],
  ['a change that is null', edit((d) => (d.plan.changes = [null as never])), 'at plan.changes[0]'],
  [
    'an action that is not one',
    edit((_d, c) => (c.action = 'destroy')),
    'at plan.changes[0].action: expected one of create, update, replace, delete, no-op, found "destroy"',
  ],
  ['an action as a number', edit((_d, c) => (c.action = 1)), 'at plan.changes[0].action'],
  ['a create with an object before', edit((_d, c) => (c.before = { id: 'x' })), 'at plan.changes[0].before: a create has no object before'],
  ['an update without its object', edit((_d, c) => (c.action = 'update')), 'at plan.changes[0].before: an update needs the object as it was'],
  [
    'a delete with an object after',
    edit((_d, c) => Object.assign(c, { action: 'delete', before: { id: 'x' } })),
    'at plan.changes[0].after: a delete has no object after',
  ],
  ['after as text', edit((_d, c) => (c.after = 'Primary')), 'at plan.changes[0].after: expected an object or null, found "Primary"'],
  [
    'an unknown type',
    edit((_d, c) => Object.assign(c, { type: 'aws_instance', address: 'aws_instance.primary' })),
    'at plan.changes[0].type: "aws_instance" is not a resource type',
  ],
  ['an address that does not match', edit((_d, c) => (c.address = 'tenantform_infra_component.other')), 'at plan.changes[0].address'],
  ['changed not a list', edit((_d, c) => (c.changed = null)), 'at plan.changes[0].changed'],
  [
    'a drift action that is not one',
    edit((d) => (d.plan.drift = [{ address: 'a.b', mode: 'managed', type: 'a', name: 'b', action: 'moved', before: null, after: null, changes: [] }] as never)),
    'at plan.drift[0].action',
  ],
  ['refresh-only as text', edit((d) => (d.plan.refreshOnly = 'no' as never)), 'at plan.refreshOnly: expected true or false, found "no"'],
  ['a prior state without serial', edit((d) => (d.plan.priorState = { lineage: 'x' } as never)), 'at plan.priorState'],
  ['data values not objects', edit((d) => (d.data = { 'data.tenantform_tenant.acme': 5 } as never)), 'at data.data.tenantform_tenant.acme'],
])('refuses %s, naming the file and the path', (_what, text, expected) => {
  const e = refusal(text);
  expect(e.summary).toBe('Cannot read the plan file');
  expect(e.detail).toContain(join(dir, 'tf.plan'));
  expect(e.detail).toContain(expected);
});
