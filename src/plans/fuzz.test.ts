/**
 * Property-based fuzzing (fixed seed, so a failure reproduces) of what a user, a tool or a
 * crash can hand tenantform: configurations, state files, apply journals and plan files, each a
 * valid document with one part replaced by anything or removed (a journal's lines also cut or
 * with a byte changed). Nothing crashes; every refusal names where.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TenantformError } from '../errors';
import { loadConfiguration } from '../config/config';
import { loadPlan } from './planfile';
import infraComponent from '../resources/kinds/infra-component';
import { StateJournal } from '../state/journal';
import { journalPath } from '../state/state-file';
import { StateStore } from '../state/state';

const SEED = 20261123;
const RUNS = 400;
const TENANT = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
const REMOVE = Symbol('remove');

const configuration = () => ({
  provider: { tenantform: [{ base_url: 'http://localhost:1' }] },
  data: { tenantform_tenant: { acme: { name: 'Acme' } }, tenantform_application: { backup: { type: 'backup' } } },
  resource: {
    tenantform_infra_component: {
      primary: {
        owner_tenant_id: '${data.tenantform_tenant.acme.id}',
        name: 'Storage',
        url: 'https://s.example.com',
        capabilities: ['backup'],
        lifecycle: { ignore_changes: ['name'], prevent_destroy: true },
      },
    },
    tenantform_tenant_setting: {
      window: {
        application_id: '${data.tenantform_application.backup.id}',
        tenant_id: TENANT,
        name: 'w',
        value: '{"a":1}',
        depends_on: ['tenantform_infra_component.primary'],
      },
    },
    tenantform_usage_report: {
      monthly: {
        result_action: 'save',
        parameters: { tenant_id: TENANT, kind: 'usage_daily', level: 'itself', formats: ['csv'] },
        schedule: { type: 'monthly' },
      },
    },
    tenantform_agent_update_settings: {
      acme: {
        tenant_id: TENANT,
        update_channel: 'STABLE',
        automatic: true,
        maintenance_window: { time_from: '01:00:00', time_to: '02:00:00', days_of_week: ['SUNDAY'] },
      },
    },
  },
});

const state = () => ({
  version: 4,
  terraform_version: '1.5.7',
  serial: 2,
  lineage: 'fa11fa11-0000-4000-8000-000000000000',
  outputs: {},
  resources: [
    {
      mode: 'managed',
      type: 'tenantform_infra_component',
      name: 'primary',
      provider: 'provider["registry.terraform.io/tenantform/tenantform"]',
      instances: [
        {
          schema_version: 0,
          attributes: { id: TENANT, name: 'Storage', capabilities: ['backup'] },
          sensitive_attributes: [],
          dependencies: ['data.tenantform_tenant.acme'],
        },
      ],
    },
    { mode: 'data', type: 'tenantform_tenant', name: 'acme', instances: [{ schema_version: 0, attributes: { id: TENANT, name: 'Acme' } }] },
  ],
  check_results: null,
  tenantform_pending: [{ address: 'tenantform_usage_report.monthly', attributes: { result_action: 'save' }, started: '2026-01-01T00:00:00Z' }],
  tenantform_protected: ['tenantform_infra_component.primary'],
});

const plan = () => ({
  format: 'tenantform-plan',
  version: 1,
  plan: {
    stack: 'main',
    configHash: 'abc',
    priorState: { lineage: 'fa11fa11-0000-4000-8000-000000000000', serial: 2 },
    changes: [
      {
        address: 'tenantform_infra_component.primary',
        mode: 'managed',
        type: 'tenantform_infra_component',
        name: 'primary',
        action: 'update',
        before: { id: TENANT, name: 'Old' },
        after: { id: TENANT, name: 'New' },
        requiresReplace: [],
        changed: ['name'],
        sensitive: [],
        identifying: [],
        seen: { version: 3 },
      },
    ],
    drift: [],
    diagnostics: [],
    refreshOnly: false,
    createdAt: '2026-01-01T00:00:00Z',
  },
  data: { 'data.tenantform_tenant.acme': { id: TENANT, name: 'Acme' } },
});

/** Every path in a JSON value, the root included. */
function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

/** The document with the part at the `pick`-th path replaced by `replacement` (or removed). */
function mutated(doc: unknown, pick: number, replacement: unknown): unknown {
  const all = paths(doc);
  const path = all[pick % all.length];
  if (path.length === 0) return replacement === REMOVE ? {} : replacement;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent = copy;
  for (const seg of path.slice(0, -1)) parent = parent[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (replacement === REMOVE) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = replacement;
  }
  return copy;
}

/** JSON values (what a file can hold), nasty strings and keys included. */
const json = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '',
    '${',
    '${data.tenantform_tenant.acme.id',
    '__proto__',
    'constructor',
    'toString',
    '${tenantform_infra_component.primary.id}',
    '\u0000',
    -1,
    1e308,
    null,
  ),
);
const mutation = fc.tuple(fc.nat(), fc.oneof({ weight: 5, arbitrary: json }, { weight: 1, arbitrary: fc.constant(REMOVE) }));
const options = { seed: SEED, numRuns: RUNS };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenantform-fuzz-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('configurations: no crash, and every error names the file or the address, and the attribute path', () => {
  const file = join(dir, 'main.tf.json');
  fc.assert(
    fc.property(mutation, ([pick, replacement]) => {
      writeFileSync(file, JSON.stringify(mutated(configuration(), pick, replacement)) ?? '');
      let diagnostics;
      try {
        diagnostics = loadConfiguration({ file, stack: 'main', defaultState: join(dir, 'terraform.main.tfstate') }).diagnostics;
      } catch (e) {
        expect(e).toBeInstanceOf(TenantformError);
        expect((e as TenantformError).detail).toContain(file);
        return;
      }
      for (const d of diagnostics.filter((x) => x.severity === 'error')) {
        // A top-level block that is no resource is named as written (`removed`, `moved[0]`).
        if (d.code === 'unsupported_block' || d.code === 'invalid_move') {
          expect(d.address).toBeDefined();
          continue;
        }
        expect(d.address).toMatch(/^((data\.)?[^.]+\.[^]*|provider\.tenantform|provider|resource|data)$/);
        // A problem with a whole block (its type, its shape) has no attribute path; any other names one.
        if (!['unknown_type', 'dependency_cycle', 'missing_block_label'].includes(d.code ?? '') && d.summary !== 'Invalid "block"')
          expect(d.path?.length).toBeGreaterThan(0);
      }
    }),
    options,
  );
});

test('state files: no crash; a refusal names the file and the path inside it', async () => {
  const file = join(dir, 'terraform.main.tfstate');
  await fc.assert(
    fc.asyncProperty(mutation, async ([pick, replacement]) => {
      writeFileSync(file, JSON.stringify(mutated(state(), pick, replacement)) ?? '');
      try {
        const store = await StateStore.open(file);
        for (const o of store.objects()) expect(typeof o.attributes).toBe('object');
        store.pending();
      } catch (e) {
        expect(e).toBeInstanceOf(TenantformError);
        expect((e as TenantformError).detail).toContain(file);
        expect((e as TenantformError).detail).toMatch(/: (at |not JSON)/);
      }
    }),
    options,
  );
});

test('plan files: no crash; a refusal names the file and the path inside it', () => {
  const file = join(dir, 'tf.plan');
  fc.assert(
    fc.property(mutation, ([pick, replacement]) => {
      writeFileSync(file, JSON.stringify(mutated(plan(), pick, replacement)) ?? '');
      try {
        const loaded = loadPlan(file);
        for (const c of loaded.plan.changes) expect(['create', 'update', 'replace', 'delete', 'no-op']).toContain(c.action);
      } catch (e) {
        expect(e).toBeInstanceOf(TenantformError);
        expect((e as TenantformError).detail).toContain(file);
        expect((e as TenantformError).detail).toMatch(/: (at |Unexpected)/);
      }
    }),
    options,
  );
});

/** The journal an apply leaves when it is killed: a state, then a removal, two records, a pending create. */
async function crashedApply(path: string): Promise<string> {
  const component = (id: string) => ({ id, owner_tenant_id: TENANT, name: id, url: 'https://x', capabilities: ['backup'], version: 1 });
  const store = await StateStore.open(path);
  store.put('tenantform_infra_component.c1', infraComponent, component('c1'), []);
  await store.save();
  const journal = await StateJournal.begin(store);
  store.remove('tenantform_infra_component.c1');
  store.put('tenantform_infra_component.c2', infraComponent, component('c2'), []);
  await journal.durable();
  store.addPending('tenantform_infra_component.c4', { name: 'c4' });
  store.put('tenantform_infra_component.c3', infraComponent, component('c3'), []);
  await journal.durable();
  return readFileSync(journalPath(path), 'utf8');
}

/** A journal's text with one line's JSON mutated, a byte changed, or cut short. */
const journalDamage = fc.oneof(
  fc.tuple(fc.constant('line' as const), fc.nat(), mutation),
  fc.tuple(fc.constant('byte' as const), fc.nat(), fc.integer({ min: 0, max: 255 })),
  fc.tuple(fc.constant('cut' as const), fc.nat(), fc.constant(0)),
);

function damaged(text: string, [how, at, what]: [string, number, unknown]): string {
  if (how === 'cut') return text.slice(0, at % text.length);
  if (how === 'byte') {
    const bytes = Buffer.from(text);
    bytes[at % bytes.length] = what as number;
    return bytes.toString('latin1');
  }
  const lines = text.split('\n');
  const index = at % (lines.length - 1);
  const [pick, replacement] = what as [number, unknown];
  lines[index] = JSON.stringify(mutated(JSON.parse(lines[index]), pick, replacement)) ?? '';
  return lines.join('\n');
}

test('apply journals: no crash; a refusal names the journal and the line', async () => {
  const path = join(dir, 'journaled.tfstate');
  const original = await crashedApply(path);
  const state = readFileSync(path, 'utf8');
  await fc.assert(
    fc.asyncProperty(journalDamage, async (damage) => {
      writeFileSync(path, state);
      writeFileSync(journalPath(path), damaged(original, damage));
      try {
        const store = await StateStore.open(path);
        for (const o of store.objects()) expect(typeof o.attributes).toBe('object');
        store.pending();
      } catch (e) {
        expect(e).toBeInstanceOf(TenantformError);
        expect((e as TenantformError).code).toBe('journal_damaged');
        expect((e as TenantformError).detail).toMatch(new RegExp(`${journalPath(path).replace(/[.]/g, '\\.')}, line \\d+: `));
      }
    }),
    options,
  );
});
