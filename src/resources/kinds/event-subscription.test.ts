import { randomUUID } from 'node:crypto';
import { PlatformClient } from '../../api';
import { startEmulator, type RunningEmulator } from '../../emulator';
import type { OperationContext, State } from '../declaration';
import { createResource, deleteResource, importResource, readResource } from '../operations';
import { planResource } from '../plan';
import { validateConfig } from '../validate';
import { UUID_PATTERN } from '../attributes';
import kind, { wildcardWellPlaced } from './event-subscription';
import { allowRefusedRequests } from '../../../test/contract/refusals';
import { stateOf } from '../testing';

const ADDRESS = 'tenantform_event_subscription.test';
const TOPIC = 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0';
const EVENT = 'cti.a.p.em.event.v1.0~a.p.tenant';
const base = { topic_id: TOPIC, types: [`${EVENT}.*`], tenant_depth: 'ALL' };

function problems(config: State) {
  return validateConfig(kind, config, ADDRESS);
}

describe('tenantform_event_subscription validation', () => {
  it('accepts the documented forms', () => {
    const types = [`${EVENT}.created.v1.0`, `${EVENT}.*`, `${EVENT}.updated.v1.*`, 'cti.a.p.em.msg.v1.0~a.p.task.*'];
    expect(problems({ ...base, types, subject_types: ['cti.a.p.em.object.v1.0~a.p.tenant.*'], cel: 'event.data.x == 1' })).toEqual([]);
    expect(problems({ ...base, auto_commit_interval: 'P1DT2H', session_timeout: 'PT0.5S' })).toEqual([]);
  });

  it('checks the topic prefix', () => {
    expect(problems({ ...base, topic_id: 'cti.a.p.em.event.v1.0~a.p.tenant.v1.0' })).toMatchObject([
      { address: ADDRESS, path: ['topic_id'], detail: expect.stringContaining('Must start with cti.a.p.em.topic.v1.0~.') },
    ]);
  });

  it('accepts exactly the three forms of types: exact, a path prefix ending in *, a version form ending in v1.*', () => {
    expect(problems({ ...base, types: [`${EVENT}.created.v1.0`, `${EVENT}.*`, `${EVENT}.updated.v1.*`, `${EVENT}.upd*`] })).toEqual([]);
    expect(problems({ ...base, types: [`${EVENT}.*`, 'cti.a.p.em.event.v1.0~a.p*.tenant.v1.0', 'cti.a.p.em.event.v1.0~a.*.created.v1.*'] })).toMatchObject([
      { address: ADDRESS, path: ['types', 1], detail: expect.stringContaining('Not one of the three forms') },
      { address: ADDRESS, path: ['types', 2], detail: expect.stringContaining('Not one of the three forms') },
    ]);
  });

  it('refuses a wildcard topic', () => {
    expect(problems({ ...base, topic_id: 'cti.a.p.em.topic.v1.0~a.p.*' })).toMatchObject([{ address: ADDRESS, path: ['topic_id'] }]);
  });

  it('checks the prefix of each type', () => {
    expect(problems({ ...base, types: [`${EVENT}.*`, 'cti.a.p.em.topic.v1.0~a.p.tenant.*'] })).toMatchObject([
      { address: ADDRESS, path: ['types', 1], detail: expect.stringContaining('cti.a.p.em.event.v1.0~ or cti.a.p.em.msg.v1.0~') },
    ]);
  });

  it('allows * only as the last character of a segment', () => {
    expect(problems({ ...base, types: [`${EVENT}.*`, 'cti.a.p.em.event.v1.0~a.p.*tenant', `${EVENT}.**`] })).toMatchObject([
      { address: ADDRESS, path: ['types', 1] },
      { address: ADDRESS, path: ['types', 2] },
    ]);
    expect(problems({ ...base, subject_types: ['cti.*x.y'] })).toMatchObject([{ address: ADDRESS, path: ['subject_types', 0] }]);
    expect(wildcardWellPlaced('cti.a.p.em.event.v1.0~a*.b.v1.*')).toBe(true);
    expect(wildcardWellPlaced('cti.a.p.em.event.v1.0~a.p..x')).toBe(false);
    expect(wildcardWellPlaced('cti.a.p.em.event.v1.0~*a')).toBe(false);
  });

  it('needs 1 to 32 types', () => {
    expect(problems({ ...base, types: [] })).toMatchObject([{ code: 'list_size', address: ADDRESS, path: ['types'], found: '0 items' }]);
    const many = Array.from({ length: 33 }, (_, i) => `${EVENT}.t${i}.v1.0`);
    expect(problems({ ...base, types: many })).toMatchObject([{ code: 'list_size', address: ADDRESS, path: ['types'], found: '33 items' }]);
    expect(problems({ ...base, types: many.slice(0, 32) })).toEqual([]);
    expect(problems({ ...base, subject_types: many })).toMatchObject([{ code: 'list_size', address: ADDRESS, path: ['subject_types'] }]);
  });

  it('limits identifiers to 1024 characters', () => {
    const pad = (prefix: string, n: number) => prefix + 'x'.repeat(n - prefix.length);
    expect(problems({ ...base, topic_id: pad(`${TOPIC}.`, 1024), types: [pad(`${EVENT}.`, 1024)] })).toEqual([]);
    expect(problems({ ...base, topic_id: pad(`${TOPIC}.`, 1025) })).toMatchObject([{ address: ADDRESS, path: ['topic_id'] }]);
    expect(problems({ ...base, types: [pad(`${EVENT}.`, 1025)] })).toMatchObject([{ address: ADDRESS, path: ['types', 0] }]);
  });

  it('limits the CEL expression to 4096 characters', () => {
    expect(problems({ ...base, cel: 'x'.repeat(4096) })).toEqual([]);
    expect(problems({ ...base, cel: 'x'.repeat(4097) })).toMatchObject([{ address: ADDRESS, path: ['cel'] }]);
  });

  it('checks ISO 8601 durations', () => {
    expect(problems({ ...base, auto_commit_interval: '5m', session_timeout: 'PT' })).toMatchObject([
      { address: ADDRESS, path: ['auto_commit_interval'], found: '"5m"' },
      { address: ADDRESS, path: ['session_timeout'], found: '"PT"' },
    ]);
    for (const bad of ['P', 'P1DT', 'PT5', '30S']) {
      expect(problems({ ...base, session_timeout: bad })).toMatchObject([{ path: ['session_timeout'] }]);
    }
  });

  it('checks the tenant depth and the ids', () => {
    expect(problems({ ...base, tenant_depth: 'SUBTREE', subscription_id: 'abc', tenant_id: 'ABC' })).toMatchObject([
      { address: ADDRESS, path: ['subscription_id'] },
      { address: ADDRESS, path: ['tenant_id'] },
      { address: ADDRESS, path: ['tenant_depth'], expected: '`CURRENT`, `DIRECT` or `ALL`' },
    ]);
  });

  it('takes a uuid as import id', () => {
    const id = randomUUID();
    expect(kind.importId.parse(id)).toEqual({ id, subscription_id: id });
    expect(kind.importId.parse('sub-1')).toBeUndefined();
  });
});

describe('tenantform_event_subscription against the emulator', () => {
  let emulator: RunningEmulator;
  let client: PlatformClient;
  let ctx: OperationContext;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 1 });
    client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
    ctx = { client };
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  async function apply(config: State, prior: State | null) {
    expect(problems(config)).toEqual([]);
    const plan = await planResource({ kind, address: ADDRESS, config, prior });
    expect(plan.action).toBe(prior ? 'replace' : 'create');
    const r = await createResource({ kind, address: ADDRESS, ctx, planned: plan.planned! });
    expect(r.diagnostics).toEqual([]);
    return stateOf(kind, r.value);
  }

  async function read(state: State): Promise<State | null> {
    const r = await readResource({ kind, address: ADDRESS, ctx, state });
    expect(r.diagnostics).toEqual([]);
    return r.value ?? null;
  }

  const defaults = { subject_types: null, tenant_id: null, cel: null, auto_commit: false, auto_commit_interval: 'PT5M', session_timeout: 'PT30S' };

  it('creates with a generated id, replaces on any change, and only forgets on delete', async () => {
    const created = await apply(base, null);
    const id = created.subscription_id;
    expect(id).toMatch(UUID_PATTERN);
    expect(created).toEqual({ id, subscription_id: id, ...defaults, ...base });
    expect(await read(created)).toEqual(created);
    expect((await planResource({ kind, address: ADDRESS, config: base, prior: created })).action).toBe('no-op');

    const changed = { ...base, types: [`${EVENT}.created.v1.0`], session_timeout: 'PT1M' };
    const plan = await planResource({ kind, address: ADDRESS, config: changed, prior: created });
    expect(plan.action).toBe('replace');
    expect(plan.requiresReplace).toEqual([['types'], ['session_timeout']]);
    expect((await deleteResource({ kind, address: ADDRESS, ctx, prior: created })).diagnostics).toEqual([]);
    const replaced = await apply(changed, created);
    expect(replaced.subscription_id).not.toBe(id);
    expect(replaced).toEqual({ ...defaults, ...changed, id: replaced.subscription_id, subscription_id: replaced.subscription_id });
    expect(await read(replaced)).toEqual(replaced);
    // The replaced subscription was only forgotten: the platform still has it.
    expect(await read(created)).toEqual(created);

    // Keeping a declared id while an argument changes cannot be carried out: refused at plan.
    const sameId = await planResource({
      kind,
      address: ADDRESS,
      config: { ...changed, types: [`${EVENT}.updated.v1.0`], subscription_id: replaced.subscription_id },
      prior: replaced,
    });
    expect(sameId.diagnostics).toEqual([expect.objectContaining({ severity: 'error', address: ADDRESS, path: ['types'] })]);

    const removal = await planResource({ kind, address: ADDRESS, config: null, prior: replaced });
    expect(removal.action).toBe('delete');
    expect(removal.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', address: ADDRESS, detail: expect.stringContaining('keeps running on the platform') }),
    ]);
    expect((await deleteResource({ kind, address: ADDRESS, ctx, prior: replaced })).diagnostics).toEqual([]);
    expect(await read(replaced)).toEqual(replaced);
  });

  it('treats "already exists" for its own id as a repeated create', async () => {
    const id = randomUUID();
    const config = { ...base, subscription_id: id, tenant_id: emulator.world().tenants['Northwind Partner'].id, cel: 'true' };
    const first = await apply(config, null);
    const again = await apply(config, null);
    expect(again).toEqual(first);
    expect(first).toEqual({ ...defaults, ...config, id });
  });

  it('reads a subscription that does not exist as gone', async () => {
    const id = randomUUID();
    expect(await read({ ...defaults, ...base, id, subscription_id: id })).toBeNull();
  });

  it('reports a refusal of the platform as an error diagnostic', async () => {
    allowRefusedRequests(); // the platform's own refusal is what this test looks at
    const plan = await planResource({ kind, address: ADDRESS, config: { ...base, topic_id: `${TOPIC}.unknown` }, prior: null });
    const r = await createResource({ kind, address: ADDRESS, ctx, planned: plan.planned! });
    expect(r.diagnostics).toMatchObject([{ severity: 'error', address: ADDRESS }]);
  });

  it('imports by id, then plans a replacement that adopts the existing subscription', async () => {
    const existing = await apply({ ...base, tenant_depth: 'DIRECT' }, null);
    const id = existing.subscription_id;

    const imported = await importResource({ kind, address: ADDRESS, ctx, id });
    expect(imported.diagnostics).toEqual([]);
    // Only the id can be read back; the defaults fill what the declaration leaves out.
    expect(imported.value).toEqual({ id, subscription_id: id, topic_id: null, types: null, tenant_depth: null, ...defaults });

    const config = { ...base, tenant_depth: 'DIRECT', subscription_id: id };
    const plan = await planResource({ kind, address: ADDRESS, config, prior: imported.value! });
    expect(plan.action).toBe('replace');
    expect(plan.requiresReplace).toEqual([['topic_id'], ['types'], ['tenant_depth']]);
    const adopted = await apply(config, imported.value!);
    expect(adopted).toEqual(existing);
    expect((await planResource({ kind, address: ADDRESS, config, prior: await read(adopted) })).action).toBe('no-op');

    const missing = await importResource({ kind, address: ADDRESS, ctx, id: randomUUID() });
    expect(missing.diagnostics).toMatchObject([{ code: 'import_not_found', address: ADDRESS }]);
  });
});
