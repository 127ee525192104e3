import { randomUUID } from 'node:crypto';
import { startEmulator, type RunningEmulator } from './index';
import { TestClient } from './testing';

const BASE = '/api/event_manager/v1';
const TOPIC = 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0';

describe('emulator: event streams', () => {
  let e: RunningEmulator;
  let api: TestClient;

  beforeAll(async () => {
    e = await startEmulator({ account: 'root', seed: 41 });
    api = new TestClient(e);
  });
  afterAll(() => e.close());

  const subscription = (over: Record<string, unknown> = {}) => ({
    subscription_id: randomUUID(),
    topic_id: TOPIC,
    types: ['cti.a.p.em.event.v1.0~a.p.tenant.created.v1.0'],
    tenant_depth: 'ALL',
    ...over,
  });

  test('topics and types are listed and filtered', async () => {
    const topics = await api.get(`${BASE}/topics`);
    expect(topics.status).toBe(200);
    expect(topics.json.map((t: { id: string }) => t.id).sort()).toEqual([TOPIC, 'cti.a.p.em.topic.v1.0~a.p.task.v1.0'].sort());
    const one = await api.get(`${BASE}/topics?topic_id=${encodeURIComponent(TOPIC)}`);
    expect(one.json).toHaveLength(1);
    const types = await api.get(`${BASE}/types?topic_id=${encodeURIComponent(TOPIC)}`);
    const ids = types.json.map((t: { id: string }) => t.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'cti.a.p.em.event.v1.0~a.p.tenant.created.v1.0',
        'cti.a.p.em.event.v1.0~a.p.tenant.updated.v1.0',
        'cti.a.p.em.event.v1.0~a.p.tenant.enabled.v1.0',
        'cti.a.p.em.event.v1.0~a.p.tenant.disabled.v1.0',
      ]),
    );
    expect(types.json.every((t: { topic_id: string }) => t.topic_id === TOPIC)).toBe(true);
    expect(types.json[0]).not.toHaveProperty('data_schema');
    const typeOne = await api.get(`${BASE}/types?type_id=${encodeURIComponent(ids[0])}&include_schema=true`);
    expect(typeOne.json).toHaveLength(1);
    expect(typeof typeOne.json[0].data_schema).toBe('string');
  });

  test('a valid subscription is created (201) with defaults; its offset answers 200; a repeat answers 409', async () => {
    const body = subscription({ types: ['cti.a.p.em.event.v1.0~a.p.tenant.*', 'cti.a.p.em.event.v1.0~a.p.tenant.updated.v1.*'] });
    const res = await api.post(`${BASE}/subscriptions`, body);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ ...body, tenant_id: e.rootTenantId, auto_commit: false, auto_commit_interval: 'PT5M', session_timeout: 'PT30S' });
    const offset = await api.get(`${BASE}/subscriptions/offset?subscription_id=${body.subscription_id}`);
    expect(offset.status).toBe(200);
    expect(offset.json).toEqual({ subscription_id: body.subscription_id, offset: 0 });
    const again = await api.post(`${BASE}/subscriptions`, body);
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ domain: 'EventManager', code: 'conflict' });
  });

  test('an unknown subscription answers 404 notFound', async () => {
    const res = await api.get(`${BASE}/subscriptions/offset?subscription_id=${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ domain: 'EventManager', code: 'notFound' });
    expect((await api.get(`${BASE}/subscriptions/offset`)).status).toBe(400);
  });

  const long = (prefix: string) => prefix + 'a'.repeat(1025 - prefix.length);
  const types32 = Array.from({ length: 32 }, (_, i) => `cti.a.p.em.event.v1.0~a.p.tenant.t${i}.v1.0`);
  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['missing subscription_id', { subscription_id: undefined }, 'subscription_id'],
    ['subscription_id not a uuid', { subscription_id: 'sub-1' }, 'subscription_id'],
    ['missing topic_id', { topic_id: undefined }, 'topic_id'],
    ['topic_id too long', { topic_id: long('cti.a.p.em.topic.v1.0~') }, 'topic_id'],
    ['topic_id with the wrong prefix', { topic_id: 'cti.a.p.em.event.v1.0~a.p.tenant.v1.0' }, 'topic_id'],
    ['unknown topic', { topic_id: 'cti.a.p.em.topic.v1.0~a.p.nothing.v1.0' }, 'topic_id'],
    ['missing types', { types: undefined }, 'types'],
    ['empty types', { types: [] }, 'types'],
    ['33 types', { types: [...types32, 'cti.a.p.em.event.v1.0~a.p.x.v1.0'] }, 'types'],
    ['type too long', { types: [long('cti.a.p.em.event.v1.0~')] }, 'types[0]'],
    ['type with the wrong prefix', { types: ['cti.a.p.em.topic.v1.0~a.p.tenant.created.v1.0'] }, 'types[0]'],
    ['wildcard inside a segment', { types: ['cti.a.p.em.event.v1.0~a.p.ten*ant.created.v1.0'] }, 'types[0]'],
    ['wildcard not last in a segment', { types: ['cti.a.p.em.event.v1.0~a.p.*x.v1.0'] }, 'types[0]'],
    ['wildcard in the middle of the path', { types: ['cti.a.p.em.event.v1.0~a.p*.tenant.created.v1.0'] }, 'types[0]'],
    ['two wildcards', { types: ['cti.a.p.em.event.v1.0~a.*.created.v1.*'] }, 'types[0]'],
    ['empty segment', { types: ['cti.a.p.em.event.v1.0~a.p..v1.0'] }, 'types[0]'],
    ['nothing after the prefix', { types: ['cti.a.p.em.event.v1.0~'] }, 'types[0]'],
    ['33 subject types', { subject_types: [...types32, 'cti.x'] }, 'subject_types'],
    ['subject type wildcard misuse', { subject_types: ['cti.a.p.em.object.v1.0~a.p.*tenant.v1.0'] }, 'subject_types[0]'],
    ['missing tenant_depth', { tenant_depth: undefined }, 'tenant_depth'],
    ['bad tenant_depth', { tenant_depth: 'SOME' }, 'tenant_depth'],
    ['cel too long', { cel: 'x'.repeat(4097) }, 'cel'],
    ['bad auto_commit_interval', { auto_commit_interval: '5 minutes' }, 'auto_commit_interval'],
    ['bad session_timeout', { session_timeout: 'PT' }, 'session_timeout'],
    ['unknown field', { colour: 'red' }, 'colour'],
  ];

  test.each(invalid)('400 badRequest: %s', async (_name, over, field) => {
    const res = await api.post(`${BASE}/subscriptions`, subscription(over));
    expect(res.status).toBe(400);
    expect(res.json.error.domain).toBe('EventManager');
    expect(res.json.error.code).toBe('badRequest');
    expect(res.json.error.message.startsWith(`${field}:`)).toBe(true);
  });

  test('the limits themselves are accepted', async () => {
    const res = await api.post(
      `${BASE}/subscriptions`,
      subscription({
        types: types32,
        subject_types: ['cti.a.p.em.object.v1.0~a.p.tenant.*'],
        tenant_depth: 'DIRECT',
        tenant_id: e.world().tenants['Northwind Partner']?.id,
        cel: 'x'.repeat(4096),
        auto_commit: true,
        auto_commit_interval: 'PT1M30S',
        session_timeout: 'PT0.5S',
      }),
    );
    expect(res.status).toBe(201);
    const msg = await api.post(`${BASE}/subscriptions`, subscription({ types: ['cti.a.p.em.msg.v1.0~a.p.tenant.note.v1.0'], tenant_depth: 'CURRENT' }));
    expect(msg.status).toBe(201);
  });
});
