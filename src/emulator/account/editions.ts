/**
 * A tenant's edition of a service: which edition its offering items of an application are in,
 * and switching it (`PUT /tenants/{id}/edition` with `{target_edition, application_id}`, as the
 * vendor's guide sends it). Editions exist for Cyber Protection and File Sync & Share only.
 * Switching moves each item that is on to the item of the same usage in the target edition;
 * an item the target edition has no counterpart of is switched off (the vendor's guide: switching
 * to an unavailable edition switches all offering items off).
 */
import { accountBadRequest } from '../errors';
import { catalogueOf, offeringItem, storageComponentsFor, UNLIMITED } from '../offerings';
import type { z } from 'zod';
import { closed, oneOf, uuid } from '../body';
import { json, withBody, type Reply, type RequestContext, type Route } from '../router';
import type { OfferingItem } from '../store';
import { ADMIN_TENANTS, nowIso, PREFIX, VIEW_TENANTS, visibleTenant } from './common';
import { EDITIONS } from './offering-items';

/** The services that have editions. */
const EDITIONED = ['backup', 'files_cloud'];

/** The edition most of an application's items that are on are in, per application that has editions. */
function editionsOf(items: readonly OfferingItem[], applicationIds: readonly string[]): Array<{ application_id: string; edition: string | null }> {
  return applicationIds.map((application_id) => {
    const on = items.filter((i) => i.application_id === application_id && i.status === 1);
    const counts = new Map<string, number>();
    for (const i of on) counts.set(i.edition, (counts.get(i.edition) ?? 0) + 1);
    const edition = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    return { application_id, edition };
  });
}

function getEdition(ctx: RequestContext): Reply {
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const apps = Object.values(ctx.store.world.applications).filter((a) => EDITIONED.includes(a.type));
  return json(200, {
    items: editionsOf(
      ctx.store.itemsOf(tenant.id),
      apps.map((a) => a.id),
    ),
  });
}

const EditionSwitch = closed({ target_edition: oneOf(EDITIONS), application_id: uuid() }, 'an edition switch');

function switchEdition(ctx: RequestContext<z.output<typeof EditionSwitch>>): Reply {
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const body = ctx.body;
  const app = ctx.store.application(body.application_id);
  if (app === undefined || !EDITIONED.includes(app.type))
    throw accountBadRequest('application_id', `must be a service with editions (${EDITIONED.join(', ')})`);
  const target = body.target_edition;
  const catalogue = catalogueOf(app, storageComponentsFor(app, ctx.store.world.infra));
  const next = structuredClone([...ctx.store.itemsOf(tenant.id)]);
  const key = (i: { name: string; infra_id?: string }) => `${i.name}/${i.infra_id ?? ''}`;
  for (const item of next.filter((i) => i.application_id === app.id && i.status === 1 && i.edition !== target)) {
    item.status = 0;
    const counterpart = catalogue.find((c) => c.edition === target && c.usage_name === item.usage_name && (c.infra_id ?? null) === (item.infra_id ?? null));
    if (counterpart === undefined) continue;
    const existing = next.find((i) => i.application_id === app.id && key(i) === key(counterpart));
    if (existing) existing.status = 1;
    else next.push(offeringItem(app, counterpart, tenant.id, 1, item.quota ?? UNLIMITED));
  }
  ctx.store.setItemsOf(tenant.id, next);
  ctx.store.save();
  return json(200, { timestamp: nowIso(), items: next.filter((i) => i.application_id === app.id) });
}

export const editionRoutes: Route[] = [
  { method: 'GET', pattern: `${PREFIX}/tenants/:tenant/edition`, scopes: VIEW_TENANTS, handler: getEdition },
  withBody({ method: 'PUT', pattern: `${PREFIX}/tenants/:tenant/edition`, scopes: ADMIN_TENANTS, body: EditionSwitch, handler: switchEdition }),
];
