/**
 * Event stream interface (`/api/event_manager/v1`): topics, event types, subscriptions and
 * the subscription offset (the only documented existence check, GAPS: reading a subscription back).
 */
import { eventBadRequest, eventError } from './errors';
import { SPOKEN_INTERFACES } from '../api/interfaces';
import type { z } from 'zod';
import { bool, closed, list, oneOf, text, uuid } from './body';
import { json, queryBool, UUID_RE, withBody, type InterfaceRoutes, type Reply, type RequestContext } from './router';
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
/** spec 03: `*` only as the final character of a segment (segments split by `.` and `~`); no empty segment. */
function wildcardProblem(cti: string): string | undefined {
  for (const segment of cti.split(/[.~]/)) {
    if (segment === '') return 'has an empty segment';
    const star = segment.indexOf('*');
    if (star >= 0 && star !== segment.length - 1) return 'may use * only as the last character of a segment';
  }
  return undefined;
}

/** A CTI string; `prefixes`: the type forms it must begin with (spec 3, `types`). */
function cti(prefixes?: readonly string[]) {
  return text('must be a CTI string')
    .min(1, 'must be a CTI string')
    .max(MAX_CTI, `must be at most ${MAX_CTI} characters`)
    .superRefine((v, ctx) => {
      if (prefixes !== undefined && !prefixes.some((p) => v.startsWith(p)))
        ctx.addIssue({ code: 'custom', message: `must begin with ${prefixes.join(' or ')}` });
      // Spec 3, `types`: an exact type, a path prefix ending in *, or a version form ending in v1.*.
      else if (prefixes !== undefined && v.includes('*') && v.indexOf('*') !== v.length - 1)
        ctx.addIssue({
          code: 'custom',
          message: 'must be an exact type, a path prefix ending in *, or a version form ending in v1.*: a wildcard may only be the last character',
        });
      else {
        const problem = wildcardProblem(v);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      }
    });
}

const ctiList = (min: number, prefixes?: readonly string[]) =>
  list(cti(prefixes), 'must be an array of CTI strings').min(min, `must have ${min} to 32 items`).max(32, `must have ${min} to 32 items`);

const duration = () => text('must be an ISO 8601 duration such as PT5M').regex(DURATION_RE, 'must be an ISO 8601 duration such as PT5M');

const SubscriptionCreate = closed(
  {
    // GAPS: who picks subscription_id (the client; required)
    subscription_id: uuid(),
    topic_id: text()
      .min(1, 'is required')
      .max(MAX_CTI, `must be at most ${MAX_CTI} characters`)
      .refine((t) => t.startsWith(TOPIC_PREFIX), `must begin with ${TOPIC_PREFIX}`)
      .refine((t) => !t.includes('*'), 'must not use a wildcard'),
    types: ctiList(1, TYPE_PREFIXES),
    subject_types: ctiList(0).optional(),
    tenant_id: uuid().optional(),
    tenant_depth: oneOf(['CURRENT', 'DIRECT', 'ALL'], 'must be CURRENT, DIRECT or ALL'),
    cel: text().max(4096, 'must be at most 4096 characters').optional(),
    auto_commit: bool().optional(),
    auto_commit_interval: duration().optional(),
    session_timeout: duration().optional(),
  },
  'a subscription',
  'must be a subscription object',
);

function createSubscription(ctx: RequestContext<z.output<typeof SubscriptionCreate>>): Reply {
  const body = ctx.body;
  const id = body.subscription_id;
  const topic = body.topic_id;
  // platform-interface: subscription create (an unknown topic answers 400)
  if (!ctx.store.world.topics.some((t) => t.id === topic)) throw eventBadRequest('topic_id', `${topic} is not a known topic`);

  let tenantId = ctx.caller.tenantId; // spec 03: default from the access token
  if (body.tenant_id !== undefined) {
    const t = ctx.store.tenant(body.tenant_id);
    if (t === undefined || !ctx.store.isInSubtree(t.id, ctx.caller.tenantId))
      throw eventBadRequest('tenant_id', `${body.tenant_id} is not a tenant you can see`);
    tenantId = t.id;
  }

  const existing = ctx.store.world.subscriptions;
  if (existing[id.toLowerCase()] !== undefined) throw eventError(409, 'conflict', `Subscription ${id} already exists`);

  const sub: Subscription = {
    subscription_id: id,
    topic_id: topic,
    types: body.types,
    tenant_id: tenantId,
    tenant_depth: body.tenant_depth,
    auto_commit: body.auto_commit === true,
    auto_commit_interval: body.auto_commit_interval ?? 'PT5M',
    session_timeout: body.session_timeout ?? 'PT30S',
    offset: 0,
  };
  if (body.subject_types !== undefined) sub.subject_types = body.subject_types;
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
    withBody({ method: 'POST', pattern: `${PREFIX}/subscriptions`, scopes: SUBSCRIBER, body: SubscriptionCreate, handler: createSubscription }),
    { method: 'GET', pattern: `${PREFIX}/subscriptions/offset`, scopes: SUBSCRIBER, handler: subscriptionOffset },
  ],
};
