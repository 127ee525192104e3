/**
 * Event stream interface (`/api/event_manager/v1`): topics, event types, subscriptions and
 * the subscription offset (the only documented existence check, GAPS: reading a subscription back).
 */
import { eventBadRequest, eventError } from './errors';
import { SPOKEN_INTERFACES } from '../api/interfaces';
import { isObject, json, queryBool, UUID_RE, type InterfaceRoutes, type Reply, type RequestContext } from './router';
import type { Subscription } from './store';

// spec 03: event manager scopes are urn:vendor:event_manager:{cti_query}:{role}
const PUBLISHER_OR_SUBSCRIBER = ['urn:vendor:event_manager:*:publisher', 'urn:vendor:event_manager:*:subscriber'];
const SUBSCRIBER = ['urn:vendor:event_manager:*:subscriber'];

const PREFIX = SPOKEN_INTERFACES.event_manager.prefix;

const TOPIC_PREFIX = 'cti.a.p.em.topic.v1.0~';
const TYPE_PREFIXES = ['cti.a.p.em.event.v1.0~', 'cti.a.p.em.msg.v1.0~'];
const MAX_CTI = 1024;
// ISO 8601 duration, e.g. PT5M, PT30S, P1DT2H, PT0.5S
const DURATION_RE = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
const SUBSCRIPTION_FIELDS = [
  'subscription_id',
  'topic_id',
  'types',
  'subject_types',
  'tenant_id',
  'tenant_depth',
  'cel',
  'auto_commit',
  'auto_commit_interval',
  'session_timeout',
];

/** spec 03: `*` only as the final character of a segment (segments split by `.` and `~`); no empty segment. */
function wildcardProblem(cti: string): string | undefined {
  for (const segment of cti.split(/[.~]/)) {
    if (segment === '') return 'has an empty segment';
    const star = segment.indexOf('*');
    if (star >= 0 && star !== segment.length - 1) return 'may use * only as the last character of a segment';
  }
  return undefined;
}

function checkCtiList(value: unknown, field: string, min: number, prefixes: string[] | undefined): string[] {
  if (!Array.isArray(value)) throw eventBadRequest(field, 'must be an array of CTI strings');
  if (value.length < min || value.length > 32) throw eventBadRequest(field, `must have ${min} to 32 items`);
  return value.map((v, i) => {
    const at = `${field}[${i}]`;
    if (typeof v !== 'string' || v === '') throw eventBadRequest(at, 'must be a CTI string');
    if (v.length > MAX_CTI) throw eventBadRequest(at, `must be at most ${MAX_CTI} characters`);
    if (prefixes !== undefined && !prefixes.some((p) => v.startsWith(p))) throw eventBadRequest(at, `must begin with ${prefixes.join(' or ')}`);
    // Spec 3, `types`: an exact type, a path prefix ending in *, or a version form ending in v1.*.
    if (prefixes !== undefined && v.includes('*') && v.indexOf('*') !== v.length - 1) {
      throw eventBadRequest(
        at,
        'must be an exact type, a path prefix ending in *, or a version form ending in v1.*: a wildcard may only be the last character',
      );
    }
    const problem = wildcardProblem(v);
    if (problem !== undefined) throw eventBadRequest(at, problem);
    return v;
  });
}

function createSubscription(ctx: RequestContext): Reply {
  const body = ctx.body;
  if (!isObject(body)) throw eventBadRequest('body', 'must be a subscription object');
  for (const k of Object.keys(body)) if (!SUBSCRIPTION_FIELDS.includes(k)) throw eventBadRequest(k, 'is not a subscription field');

  // GAPS: who picks subscription_id (the client; required)
  const id = body.subscription_id;
  if (typeof id !== 'string' || !UUID_RE.test(id)) throw eventBadRequest('subscription_id', 'is required and must be a uuid');

  const topic = body.topic_id;
  if (typeof topic !== 'string' || topic === '') throw eventBadRequest('topic_id', 'is required');
  if (topic.length > MAX_CTI) throw eventBadRequest('topic_id', `must be at most ${MAX_CTI} characters`);
  if (!topic.startsWith(TOPIC_PREFIX)) throw eventBadRequest('topic_id', `must begin with ${TOPIC_PREFIX}`);
  if (topic.includes('*')) throw eventBadRequest('topic_id', 'must not use a wildcard');
  // platform-interface: subscription create (an unknown topic answers 400)
  if (!ctx.store.world.topics.some((t) => t.id === topic)) throw eventBadRequest('topic_id', `${topic} is not a known topic`);

  if (body.types === undefined) throw eventBadRequest('types', 'is required');
  const types = checkCtiList(body.types, 'types', 1, TYPE_PREFIXES);
  const subjectTypes = body.subject_types === undefined ? undefined : checkCtiList(body.subject_types, 'subject_types', 0, undefined);

  const depth = body.tenant_depth;
  if (depth !== 'CURRENT' && depth !== 'DIRECT' && depth !== 'ALL') throw eventBadRequest('tenant_depth', 'is required: CURRENT, DIRECT or ALL');

  let tenantId = ctx.caller.tenantId; // spec 03: default from the access token
  if (body.tenant_id !== undefined) {
    if (typeof body.tenant_id !== 'string' || !UUID_RE.test(body.tenant_id)) throw eventBadRequest('tenant_id', 'must be a uuid');
    const t = ctx.store.tenant(body.tenant_id);
    if (t === undefined || !ctx.store.isInSubtree(t.id, ctx.caller.tenantId))
      throw eventBadRequest('tenant_id', `${body.tenant_id} is not a tenant you can see`);
    tenantId = t.id;
  }
  if (body.cel !== undefined) {
    if (typeof body.cel !== 'string') throw eventBadRequest('cel', 'must be a string');
    if (body.cel.length > 4096) throw eventBadRequest('cel', 'must be at most 4096 characters');
  }
  if (body.auto_commit !== undefined && typeof body.auto_commit !== 'boolean') throw eventBadRequest('auto_commit', 'must be a boolean');
  for (const f of ['auto_commit_interval', 'session_timeout']) {
    const v = body[f];
    if (v !== undefined && (typeof v !== 'string' || !DURATION_RE.test(v))) throw eventBadRequest(f, 'must be an ISO 8601 duration such as PT5M');
  }

  const existing = ctx.store.world.subscriptions;
  if (existing[id.toLowerCase()] !== undefined) throw eventError(409, 'conflict', `Subscription ${id} already exists`);

  const sub: Subscription = {
    subscription_id: id,
    topic_id: topic,
    types,
    tenant_id: tenantId,
    tenant_depth: depth,
    auto_commit: body.auto_commit === true,
    auto_commit_interval: (body.auto_commit_interval as string | undefined) ?? 'PT5M',
    session_timeout: (body.session_timeout as string | undefined) ?? 'PT30S',
    offset: 0,
  };
  if (subjectTypes !== undefined) sub.subject_types = subjectTypes;
  if (body.cel !== undefined) sub.cel = body.cel;
  existing[id.toLowerCase()] = sub;
  ctx.store.save();
  const { offset: _offset, ...view } = sub;
  return json(201, view);
}

function subscriptionOffset(ctx: RequestContext): Reply {
  const id = ctx.query.get('subscription_id');
  if (id === null || !UUID_RE.test(id)) throw eventBadRequest('subscription_id', 'is required and must be a uuid');
  const sub = ctx.store.world.subscriptions[id.toLowerCase()];
  // GAPS: reading a subscription back (404 notFound)
  if (sub === undefined || !ctx.store.isInSubtree(sub.tenant_id, ctx.caller.tenantId)) throw eventError(404, 'notFound', `Subscription ${id} not found`);
  return json(200, { subscription_id: sub.subscription_id, offset: sub.offset });
}

function listTopics(ctx: RequestContext): Reply {
  const id = ctx.query.get('topic_id');
  if (id !== null && (id.length > MAX_CTI || id.includes('*'))) throw eventBadRequest('topic_id', 'must be a CTI without wildcard, at most 1024 characters');
  return json(
    200,
    ctx.store.world.topics.filter((t) => id === null || t.id === id),
  );
}

function listTypes(ctx: RequestContext): Reply {
  const topic = ctx.query.get('topic_id');
  const type = ctx.query.get('type_id');
  const withSchema = queryBool(ctx.query, 'include_schema');
  if (withSchema === 'invalid') throw eventBadRequest('include_schema', 'must be true or false');
  const items = ctx.store.world.eventTypes
    .filter((t) => (topic === null || t.topic_id === topic) && (type === null || t.id === type))
    .map(({ data_schema, ...rest }) => (withSchema === true ? { ...rest, data_schema } : rest));
  return json(200, items);
}

export const eventRoutes: InterfaceRoutes = {
  name: 'event',
  prefix: `${PREFIX}/`,
  routes: [
    { method: 'GET', pattern: `${PREFIX}/topics`, scopes: PUBLISHER_OR_SUBSCRIBER, handler: listTopics },
    { method: 'GET', pattern: `${PREFIX}/types`, scopes: PUBLISHER_OR_SUBSCRIBER, handler: listTypes },
    { method: 'POST', pattern: `${PREFIX}/subscriptions`, scopes: SUBSCRIBER, jsonBody: true, handler: createSubscription },
    { method: 'GET', pattern: `${PREFIX}/subscriptions/offset`, scopes: SUBSCRIBER, handler: subscriptionOffset },
  ],
};
