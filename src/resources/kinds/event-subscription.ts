import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { SubscriptionBody } from '../../api';
import { isConflict, isNotFound } from '../../api/errors';
import { refusedChange } from '../../diagnostics';
import { attr, oneOf, uuid, type Attributes } from '../attributes';
import { defineResource, type OperationContext, type State } from '../declaration';
import type { PlannedOf } from '../models';
import { valueEqual } from '../values';

const MAX_ID = 1024;
const TOPIC_PREFIX = 'cti.a.p.em.topic.v1.0~';
const TYPE_PREFIXES = ['cti.a.p.em.event.v1.0~', 'cti.a.p.em.msg.v1.0~'];

/** Spec 3: the wildcard `*` is allowed only as the final character of a segment (and no segment is empty). */
export function wildcardWellPlaced(cti: string): boolean {
  return cti.split(/[.~]/).every((segment) => segment !== '' && !segment.slice(0, -1).includes('*'));
}

const identifier = z.string().max(MAX_ID, `At most ${MAX_ID} characters.`);
const withWildcard = identifier.refine(
  wildcardWellPlaced,
  'The wildcard * may only end a segment, and no segment may be empty (segments are separated by . and ~).',
);
const topicId = identifier
  .refine((s) => s.startsWith(TOPIC_PREFIX) && s.length > TOPIC_PREFIX.length, `Must start with ${TOPIC_PREFIX}.`)
  .refine((s) => !s.includes('*'), 'A topic is one identifier: no wildcard.');
/**
 * Spec 3, subscription `types`: after the `~`, an exact type, a path prefix ending in `*`, or a
 * latest-version form ending in `v1.*`. A wildcard anywhere else (in the middle of the path) is none of them.
 */
export function eventTypeForm(cti: string): boolean {
  const star = cti.indexOf('*');
  return star === -1 || star === cti.length - 1;
}

const eventType = identifier.superRefine((s, ctx) => {
  // One problem per identifier: the first that applies.
  const problem = !TYPE_PREFIXES.some((p) => s.startsWith(p) && s.length > p.length)
    ? `Must start with ${TYPE_PREFIXES.join(' or ')}.`
    : !wildcardWellPlaced(s)
      ? 'The wildcard * may only end a segment, and no segment may be empty (segments are separated by . and ~).'
      : !eventTypeForm(s)
        ? 'Not one of the three forms: an exact type, a path prefix ending in *, or a version form ending in v1.* (a wildcard may only be the last character).'
        : undefined;
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** ISO 8601 duration such as `PT5M`, `PT30S`, `P1DT12H` or `P2W`. */
const DURATION = /^P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?$/;
const duration = z.string().regex(DURATION, 'Not an ISO 8601 duration.');
const DURATION_EXPECTS = 'an ISO 8601 duration such as `PT30S`, `PT5M` or `P1D`';

const attributes = {
  id: attr.string({ mode: 'computed', key: true, description: 'The subscription id (same as `subscription_id`).' }),
  subscription_id: attr.uuid({
    mode: 'optional_computed',
    forceNew: true,
    identifying: true,
    key: true,
    description: 'The subscription id. Left out, tenantform generates one before creating the subscription.',
  }),
  topic_id: attr.string({
    mode: 'required',
    forceNew: true,
    identifying: true,
    check: topicId,
    expects: `a topic identifier starting with ${TOPIC_PREFIX}, without wildcard, at most ${MAX_ID} characters`,
    description: 'The topic to receive events of, e.g. `cti.a.p.em.topic.v1.0~a.p.tenant.v1.0`.',
  }),
  types: attr.list(eventType, {
    mode: 'required',
    forceNew: true,
    minItems: 1,
    maxItems: 32,
    expects: `event type identifiers starting with ${TYPE_PREFIXES.join(' or ')}, at most ${MAX_ID} characters: exact, a path prefix ending in *, or a version form ending in v1.*`,
    description: 'Event types to receive: exact types, prefixes ending in `*`, or `...v1.*` for the latest version.',
  }),
  subject_types: attr.list(withWildcard, {
    mode: 'optional',
    forceNew: true,
    maxItems: 32,
    expects: `subject type identifiers of at most ${MAX_ID} characters, * only ending a segment`,
    description: 'Subject types to receive; left out, all.',
  }),
  tenant_id: attr.uuid({
    mode: 'optional',
    forceNew: true,
    description: 'The root of the tenant subtree; left out, the tenant of the API client.',
  }),
  tenant_depth: attr.string({
    mode: 'required',
    forceNew: true,
    check: oneOf(['CURRENT', 'DIRECT', 'ALL']),
    expects: '`CURRENT`, `DIRECT` or `ALL`',
    description: '`CURRENT`: events of the tenant itself; `DIRECT`: also of its direct children; `ALL`: also of all descendants.',
  }),
  cel: attr.string({
    mode: 'optional',
    forceNew: true,
    check: z.string().max(4096, 'At most 4096 characters.'),
    expects: 'a CEL expression of at most 4096 characters',
    description: 'A filter expression over the event.',
  }),
  auto_commit: attr.bool({ mode: 'optional', forceNew: true, default: false, description: 'Commit acknowledged offsets automatically.' }),
  auto_commit_interval: attr.string({
    mode: 'optional',
    forceNew: true,
    default: 'PT5M',
    check: duration,
    expects: DURATION_EXPECTS,
    description: 'How often offsets are committed automatically.',
  }),
  session_timeout: attr.string({
    mode: 'optional',
    forceNew: true,
    default: 'PT30S',
    check: duration,
    expects: DURATION_EXPECTS,
    description: 'How long a consumer keeps event-fetching leadership without heartbeats.',
  }),
};

export const eventSubscription = defineResource({
  type: 'tenantform_event_subscription',
  description:
    'A subscription to an event stream topic. The platform can neither change nor delete a subscription through its ' +
    'documented interface: every argument forces a new subscription, and removing the resource only stops managing it.',
  schemaVersion: 0,
  attributes,
  modifyPlan(_ctx, { prior, planned }) {
    // A replacement that keeps the declared id cannot happen: the platform neither changes nor
    // deletes a subscription, and a create with an id that exists is refused. Only arguments the
    // state knows count (after `terraform import` it knows the id alone).
    if (!prior || !planned || typeof planned.subscription_id !== 'string' || planned.subscription_id !== prior.subscription_id) return {};
    const [before, after]: State[] = [prior, planned];
    const declared: Attributes = attributes;
    const changed = Object.entries(declared).find(
      ([name, a]) =>
        a.forceNew === true && name !== 'subscription_id' && before[name] !== null && before[name] !== undefined && !valueEqual(a, before[name], after[name]),
    );
    if (!changed) return {};
    const refused = refusedChange({
      code: 'cannot_replace',
      path: [changed[0]],
      expected: 'a new subscription_id together with the changed arguments (or subscription_id left out, to have one generated)',
      found: `${changed[0]} changed while subscription_id stays ${planned.subscription_id}`,
      message: 'The platform cannot change or delete a subscription: changed arguments need a subscription with a new id.',
    });
    return { diagnostics: [refused] };
  },
  // GAPS "Deleting a subscription": there is no documented delete.
  deleteOnlyForgets:
    'The platform has no operation to delete an event subscription. tenantform stops managing it, but the subscription ' +
    'keeps running on the platform (and keeps collecting events) until the platform operator removes it.',
  notes: [
    'The platform has no documented read of a subscription (GAPS): drift detection only checks that it still exists; its ' +
      'attributes are the ones recorded when it was created.',
    "Even that check rests on an assumption: the only read is the subscription's offset (`GET /subscriptions/offset`), " +
      'for which the vendor\'s reference documents no 404. tenantform takes a 404 there as "the subscription is gone"; an ' +
      'answer of 200 proves that the offset answered, and a platform that answers an unknown id otherwise would leave a ' +
      'deleted subscription unnoticed.',
    '`tenantform import` records the declared arguments with the imported id (they cannot be read back; a warning says ' +
      'so), so the next plan is empty when the declaration matches. `terraform import` records only the id: declare ' +
      '`subscription_id` with the imported id, and the next plan is a replacement that sends the same id again, which the ' +
      'platform answers with "already exists"; the declared arguments are recorded and nothing is created twice.',
    'Left out, `subscription_id` is generated before the create is recorded as pending and sent: a run that loses the answer ' +
      '(or cannot write the state after it) finds the same subscription again by that id, instead of making a second one that ' +
      'the platform could never delete.',
    'For the same reason, changing an argument while keeping the same `subscription_id` cannot change the subscription on the ' +
      'platform, and the plan refuses it, naming the argument. Change the arguments together with a new `subscription_id` (or ' +
      'leave `subscription_id` out to have one generated).',
  ],
  importId: {
    format: '`<subscription_id>`',
    parse: (id) => (uuid.safeParse(id).success ? { id, subscription_id: id } : undefined),
  },
  identity: (s) => s.subscription_id,
  example: {
    name: 'tenant_events',
    config: {
      topic_id: 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0',
      types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'],
      tenant_depth: 'ALL',
    },
  },
  async read(ctx, state) {
    return (await exists(ctx, state.subscription_id)) ? { ...state, id: state.subscription_id } : null;
  },
  // The id is the caller's: chosen before the create is recorded as pending and sent, so that a run
  // that loses the answer (or its state write) finds the same subscription again by it.
  nonIdempotentCreate: true,
  prepareCreate: (planned) => (typeof planned.subscription_id === 'string' ? planned : { ...planned, subscription_id: randomUUID() }),
  async adoptionCandidates(ctx, pending) {
    const id = pending.subscription_id;
    return typeof id === 'string' && (await exists(ctx, id)) ? [{ ...pending, id, subscription_id: id }] : [];
  },
  async create(ctx, planned) {
    const id = typeof planned.subscription_id === 'string' ? planned.subscription_id : randomUUID();
    const state = { ...planned, id, subscription_id: id };
    try {
      await ctx.client.createSubscription(toBody(state));
    } catch (err) {
      // GAPS "Who picks subscription_id": 409 means a subscription with our own id exists, i.e. an earlier
      // (interrupted or repeated) create made it.
      if (!isConflict(err)) throw err;
    }
    return state;
  },
  async update(_ctx, prior, planned) {
    // Every argument forces replacement, so an update only ever refreshes the id.
    return { ...planned, id: prior.subscription_id, subscription_id: prior.subscription_id };
  },
  async delete() {
    // GAPS "Deleting a subscription": nothing to send; `deleteOnlyForgets` warns the user at plan time.
  },
});

/** Whether the platform still has the subscription (see the notes on how far that is known). */
async function exists(ctx: OperationContext, id: string): Promise<boolean> {
  try {
    // GAPS "Reading a subscription back": the offset answers 404 for a subscription that does not
    // exist. The reference documents no 404 there: an assumption, stated in the kind's notes.
    await ctx.client.getSubscriptionOffset(id);
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
  return true;
}

/** Unset members are left out. */
function toBody(s: PlannedOf<typeof attributes> & { readonly subscription_id: string }): SubscriptionBody {
  return {
    subscription_id: s.subscription_id,
    topic_id: s.topic_id,
    types: [...s.types],
    tenant_depth: s.tenant_depth,
    ...(s.subject_types === null ? {} : { subject_types: [...s.subject_types] }),
    ...(s.tenant_id === null ? {} : { tenant_id: s.tenant_id }),
    ...(s.cel === null ? {} : { cel: s.cel }),
    auto_commit: s.auto_commit,
    auto_commit_interval: s.auto_commit_interval,
    session_timeout: s.session_timeout,
  };
}

export default eventSubscription;
