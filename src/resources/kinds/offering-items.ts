import { z } from 'zod';
import type { OfferingItem, OfferingItemWrite } from '../../api';
import { isNotFound } from '../../api/errors';
import { resourceErrors } from '../errors';
import { attr } from '../attributes';
import { invalidValue, refusedChange, type Diagnostic } from '../../diagnostics';
import { defineResource, type OperationContext } from '../declaration';
import type { KnownOf, PlannedOf, StateOf } from '../models';
import { splitImportId } from '../import-id';
import { containsUnknown, normalize, parseJson, Unknown } from '../values';

const LIMIT_EXPECTS = 'a whole number of 0 or more, or null for unlimited';
const limit = z.number().int().min(0);

/** One item as the configuration declares it; `enabled` defaults to true, a quota's null means unlimited. */
const itemAttributes = {
  name: attr.string({ mode: 'required', check: z.string().min(1), expects: 'an item name', description: 'The offering item, for example `storage`.' }),
  infra_id: attr.uuid({ mode: 'optional', description: 'The storage infrastructure component a storage item is for.' }),
  enabled: attr.bool({ mode: 'optional', default: true, description: 'Whether the item is on.' }),
  quota: attr.object(
    {
      value: attr.number({ mode: 'optional', check: limit, expects: LIMIT_EXPECTS, description: 'The quota, null for unlimited.' }),
      overage: attr.number({ mode: 'optional', check: limit, expects: LIMIT_EXPECTS, description: 'The overage allowed above it, null for unlimited.' }),
    },
    { mode: 'optional', description: "The item's quota in its measurement unit; left out, the quota is not managed." },
  ),
};

/** An item as the operations use it: the configured values, `infra_id` left out where not given. */
interface Item {
  readonly name: string;
  readonly infra_id?: string;
  readonly enabled: boolean;
  readonly quota?: { readonly value: number | null; readonly overage: number | null };
}

/** 1 TiB in bytes: the unit of a storage item's quota. */
const TIB = 2 ** 40;

const attributes = {
  id: attr.string({ mode: 'computed', description: 'The identity, `<tenant_id>/<application_id>`.' }),
  tenant_id: attr.uuid({ mode: 'required', forceNew: true, identifying: true, key: true, description: 'The tenant.' }),
  application_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    key: true,
    description: 'The application whose items these are (see the `tenantform_application` data source).',
  }),
  items: attr.listNested(itemAttributes, {
    mode: 'required',
    minItems: 1,
    description:
      "The managed items. A quota is in the item's measurement unit: bytes for storage (1 TiB is `1099511627776`), a count otherwise; a value or overage of null means unlimited. `infra_id` is the storage infrastructure component a storage item is for.",
  }),
};

type Items = StateOf<typeof attributes>['items'];

export const offeringItems = defineResource({
  type: 'tenantform_offering_items',
  description:
    'The offering items (services, editions and quotas) of one application for one tenant. Only the listed items are managed; the parent tenant must have each item on (the root has every item).',
  // Version 1: `items` is a list of objects; version 0 held it as a string of JSON.
  schemaVersion: 1,
  attributes,
  notes: [
    'Items that are not listed are left as they are. An item removed from the list, or the whole resource destroyed, is turned off.',
    "Quotas are in the item's measurement unit, as the platform has it: storage items (`type: infra`) are measured in bytes, so a storage quota of 1 TiB is `1099511627776` (not `1024`); other items count workloads or seats.",
    'Storage is offered once per storage infrastructure component: a storage item is identified by its name and its `infra_id`. An item without `infra_id` of a name the platform offers per component is for the one component the tenant is offered it on (its own items, and what its parent offers a child); where there are several, the plan is refused with an error at `items[N].infra_id` listing them, and the item must say which.',
    "Every quota change carries the quota's current version; a quota changed by someone else in between is a version conflict.",
    'An item the parent tenant does not have on is refused by the platform with an error naming the item.',
    'Drift: `enabled` is compared for every listed item, the quota only where the configuration sets one.',
  ],
  check(config) {
    return config.items === Unknown || containsUnknown(config.items) ? [] : duplicateItems(itemsOf(config.items as Items));
  },
  // Which storage components an item without `infra_id` could be for is known only to the
  // platform: read what the tenant is offered, so that an ambiguous item is refused by the plan.
  async modifyPlan(ctx, { planned }) {
    if (!ctx || !planned) return {};
    const { tenant_id, application_id } = planned;
    if (tenant_id === Unknown || application_id === Unknown || containsUnknown(planned.items)) return {};
    const items = itemsOf(planned.items as Items);
    if (items.every((i) => i.infra_id !== undefined)) return {};
    const offered = await offeredItems(ctx, { tenant_id, application_id });
    return offered === null ? {} : { diagnostics: resolveInfra(items, offered).problems };
  },
  importId: {
    format: '`<tenant_id>/<application_id>` (imports the items that are on)',
    parse: (id) => splitImportId(id, ['tenant_id', 'application_id']),
  },
  identity: (s) => `${s.tenant_id}/${s.application_id}`,
  discover: {
    rank: 70,
    async list(scope, tenant) {
      // Offering items that are on, one resource per application (the platform root has every item implicitly).
      if (tenant.parentId === null) return [];
      const items = await scope.client.listOfferingItems(tenant.id, { edition: '*' });
      const appsOn = [...new Set(items.filter((i) => i.status === 1 && scope.applications.has(i.application_id)).map((i) => i.application_id))];
      return appsOn
        .sort((a, b) => scope.applicationLabel(a).localeCompare(scope.applicationLabel(b)))
        .map((appId) => ({ identity: { tenant_id: tenant.id, application_id: appId }, label: [scope.applicationLabel(appId), 'offering_items'] }));
    },
  },
  example: {
    name: 'contoso_backup',
    config: {
      tenant_id: '${tenantform_tenant.contoso.id}',
      application_id: '${data.tenantform_application.backup.id}',
      // Storage in bytes: 1 TiB (1099511627776), 100 GiB overage; workstations by count.
      items: [
        { name: 'storage', quota: { value: TIB, overage: 100 * 2 ** 30 } },
        { name: 'workstations', quota: { value: 50 } },
      ],
    },
  },
  async read(ctx, state) {
    const live = await liveItems(ctx, state);
    if (live === null) return null;
    // An import knows no items yet: it takes those that are on, with their quotas where limited.
    const wanted = state.items === null ? importedItems(live) : itemsOf(state.items);
    return { ...identity(state), items: wanted.map((w) => observed(w, live)) };
  },
  async create(ctx, planned) {
    const items = itemsOf(planned.items);
    await write(ctx, planned, items, []);
    return { ...identity(planned), items: items.map(asState) };
  },
  async update(ctx, prior, planned) {
    const items = itemsOf(planned.items);
    await write(ctx, planned, items, itemsOf(prior.items));
    return { ...identity(planned), items: items.map(asState) };
  },
  async delete(ctx, prior) {
    try {
      await write(ctx, prior, [], itemsOf(prior.items));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
  upgradeState(fromVersion, raw) {
    // Version 0 held the items as a string of JSON, as the configuration wrote them.
    if (fromVersion === 0 && typeof raw.items === 'string')
      return normalize(attributes, { ...raw, items: parseJson(raw.items) ?? null }) as StateOf<typeof attributes>;
    return raw as StateOf<typeof attributes>;
  },
});

/**
 * The items that are on, as a configuration would declare them: `infra_id` only where the item is
 * on for several components (an item on for one needs none), so an import matches what is written.
 */
function importedItems(live: readonly OfferingItem[]): Item[] {
  const on = live.filter((i) => i.status === 1);
  const components = new Map<string, number>();
  for (const i of on) components.set(i.name, (components.get(i.name) ?? 0) + 1);
  return on.map((i) => asConfigured(i, (components.get(i.name) ?? 0) > 1));
}

/** A live item as a configuration would declare it. */
function asConfigured(i: OfferingItem, namesComponent: boolean): Item {
  const q = i.quota;
  const limited = q !== null && q !== undefined && (q.value !== null || q.overage !== null);
  return {
    name: i.name,
    ...(i.infra_id && namesComponent ? { infra_id: i.infra_id } : {}),
    enabled: true,
    ...(limited ? { quota: { value: q.value, overage: q.overage } } : {}),
  };
}

/** The items of a state or a plan (all known), `infra_id` and `quota` left out where null. */
function itemsOf(items: Items | readonly PlannedItem[] | null): Item[] {
  return (items ?? []).map((i) => ({
    name: i.name,
    ...(i.infra_id === null ? {} : { infra_id: i.infra_id }),
    enabled: i.enabled !== false,
    ...(i.quota === null ? {} : { quota: { value: i.quota.value ?? null, overage: i.quota.overage ?? null } }),
  }));
}

type PlannedItem = PlannedOf<typeof attributes>['items'][number];

/** An item as the state records it: every attribute, null where not given. */
function asState(i: Item): Items[number] {
  return { name: i.name, infra_id: i.infra_id ?? null, enabled: i.enabled, quota: i.quota ?? null };
}

/** An error at the second of two items of the same name (and storage component). */
function duplicateItems(items: readonly Item[]): Diagnostic[] {
  const keys = items.map(key);
  const dup = keys.findIndex((k, i) => keys.indexOf(k) !== i);
  if (dup < 0) return [];
  return [
    invalidValue({
      code: 'duplicate_item',
      path: ['items', dup],
      expected: 'each item once',
      found: `"${items[dup].name}" twice`,
      message: 'An item is listed twice.',
    }),
  ];
}

const key = (i: { name: string; infra_id?: string | null }) => `${i.name}/${i.infra_id ?? ''}`;

/** Where the items are: a tenant and an application. */
type Place = Pick<KnownOf<typeof attributes>, 'tenant_id' | 'application_id'>;

function identity(s: Place) {
  return { id: `${s.tenant_id}/${s.application_id}`, tenant_id: s.tenant_id, application_id: s.application_id };
}

async function liveItems(ctx: OperationContext, s: Place): Promise<OfferingItem[] | null> {
  try {
    // GAPS "List a tenant's offering items": every edition, or items of other editions go unseen.
    const all = await ctx.client.listOfferingItems(s.tenant_id, { edition: '*' });
    return all.filter((i) => i.application_id === s.application_id);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/**
 * The items of `live` (one tenant's, one application's) that a configured item is: the one of its
 * key; for an item without `infra_id` of a name the tenant has per component, the only such item,
 * or else the only one that is on.
 */
function liveItemOf(wanted: Item, live: OfferingItem[]): OfferingItem | undefined {
  const exact = live.find((i) => key(i) === key(wanted));
  if (exact !== undefined || wanted.infra_id !== undefined) return exact;
  const perComponent = live.filter((i) => i.name === wanted.name && typeof i.infra_id === 'string');
  if (perComponent.length === 1) return perComponent[0];
  const on = perComponent.filter((i) => i.status === 1);
  return on.length === 1 ? on[0] : undefined;
}

/**
 * The items the tenant has or is offered (its parent's items available for a child of its
 * kind), of the resource's application; null when the tenant is out of reach.
 */
async function offeredItems(ctx: OperationContext, s: Place): Promise<OfferingItem[] | null> {
  const own = await liveItems(ctx, s);
  if (own === null) return null;
  let fromParent: OfferingItem[] = [];
  try {
    const tenant = await ctx.client.getTenant(s.tenant_id);
    // The platform's root tenant is its own parent: it has no parent to be offered items by.
    if (tenant.parent_id !== null && tenant.parent_id !== tenant.id && typeof tenant.kind === 'string') {
      fromParent = (await ctx.client.listOfferingItemsForChild(tenant.parent_id, tenant.kind)).filter((i) => i.application_id === s.application_id);
    }
  } catch (err) {
    // A parent this client cannot see: the tenant's own items are all it knows.
    if (!isNotFound(err)) throw err;
  }
  return [...own, ...fromParent];
}

/**
 * The configured items with the `infra_id` of the one storage component each item without one is
 * for, and an error at `items[N].infra_id` for each that could be for several.
 */
function resolveInfra(items: Item[], offered: OfferingItem[]): { items: Item[]; problems: Diagnostic[] } {
  const problems: Diagnostic[] = [];
  const resolved = items.map((item, n): Item => {
    if (item.infra_id !== undefined) return item;
    const ids = [...new Set(offered.flatMap((o) => (o.name === item.name && typeof o.infra_id === 'string' ? [o.infra_id] : [])))].sort();
    if (ids.length === 1) return { ...item, infra_id: ids[0] };
    if (ids.length > 1) {
      problems.push(
        refusedChange({
          code: 'infra_id_required',
          path: ['items', n, 'infra_id'],
          expected: `the storage infrastructure component the item is for, one of ${ids.join(', ')}`,
          found: 'no infra_id',
          message: `${item.name} is offered per storage infrastructure component, and the tenant is offered it on ${ids.length}: the item must say which`,
        }),
      );
    }
    return item;
  });
  const keys = resolved.map(key);
  const dup = keys.findIndex((k, i) => keys.indexOf(k) !== i);
  if (dup >= 0 && problems.length === 0) {
    const first = keys.indexOf(keys[dup]);
    problems.push(
      refusedChange({
        code: 'duplicate_item',
        path: ['items', dup],
        expected: 'each item once',
        found: `"${resolved[dup].name}" twice (items[${first}] is for the same storage component ${resolved[dup].infra_id})`,
        message: 'An item is listed twice.',
      }),
    );
  }
  return { items: resolved, problems };
}

/** What the platform has for a configured item, in the configured shape (so that only real differences show). */
function observed(wanted: Item, live: OfferingItem[]): Items[number] {
  const found = liveItemOf(wanted, live);
  const q = found?.quota;
  return {
    name: wanted.name,
    infra_id: wanted.infra_id ?? null,
    enabled: found?.status === 1,
    quota: wanted.quota === undefined ? null : { value: q?.value ?? null, overage: q?.overage ?? null },
  };
}

/**
 * One PUT: the configured items, and the items dropped from the configuration turned off. A
 * configured storage item without `infra_id` is written for the one component it can be for.
 */
async function write(ctx: OperationContext, s: Place, configured: Item[], previously: Item[]): Promise<void> {
  const live = (await liveItems(ctx, s)) ?? [];
  let items = configured;
  if (configured.some((i) => i.infra_id === undefined)) {
    const resolved = resolveInfra(configured, (await offeredItems(ctx, s)) ?? live);
    const problem = resolved.problems[0];
    if (problem !== undefined) throw resourceErrors.ruleRefused(ctx.address, problem);
    items = resolved.items;
  }
  const body: OfferingItemWrite[] = items.map((i) => {
    const current = live.find((l) => key(l) === key(i));
    const out: OfferingItemWrite = { application_id: s.application_id, name: i.name, status: i.enabled === false ? 0 : 1 };
    if (i.infra_id) out.infra_id = i.infra_id;
    // GAPS "Set offering items": a quota carries its current version.
    if (i.quota) out.quota = { value: i.quota.value, overage: i.quota.overage ?? null, version: current?.quota?.version ?? 0 };
    return out;
  });
  const kept = new Set(items.map(key));
  for (const p of previously) {
    // An item configured without `infra_id` was written for the component the tenant has it on.
    const infraId = p.infra_id ?? liveItemOf(p, live)?.infra_id ?? undefined;
    const was = { ...p, ...(infraId ? { infra_id: infraId } : {}) };
    if (!kept.has(key(was))) body.push({ application_id: s.application_id, name: p.name, status: 0, ...(infraId ? { infra_id: infraId } : {}) });
  }
  if (body.length > 0) await ctx.client.putOfferingItems(s.tenant_id, body);
}

export default offeringItems;
