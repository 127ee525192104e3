/**
 * `tenantform export`: what a tenant's subtree has live, as a cdktf app (or Terraform JSON),
 * with the import list and a state file that adopt those objects without changing them.
 */
import type { PlatformClient } from '../api';
import type { Diagnostic } from '../diagnostics';
import { importResource } from '../resources/operations';
import { configOf } from './config';
import { discover, mapLimit, type Discovered } from './discover';
import type { ExportedObject, TenantExport } from './model';
import { resourceName, slug, uniqueNames } from './names';

export { renderTypescript, type CdkLibrary } from './typescript';
export { renderTerraformJson } from './terraform-json';
export { renderHcl } from './hcl';
export { renderImportList } from './imports';
export { writeExportState } from './state';
export type { TenantInfo } from './discover';
export type { ExportedObject, TenantExport };

export interface ExportOptions {
  readonly tenantId: string;
  /** Stack name; by default made from the tenant's name. */
  readonly stack?: string;
  /** The tenant setting names to export (the platform lists no tenant's settings). */
  readonly settingNames?: readonly string[];
  readonly signal?: AbortSignal;
}

/** Reads everything the export declares. Read only: nothing on the platform changes. */
export async function exportTenant(client: PlatformClient, opts: ExportOptions): Promise<TenantExport> {
  const found = await discover(client, opts.tenantId, { settingNames: opts.settingNames });
  const names = uniqueNames(found.objects.map((o) => resourceName(o.tenant.name, ...o.label)));
  const addresses = found.objects.map((o, i) => `${o.kind.type}.${names[i]}`);
  const ctx = { client, signal: opts.signal };
  const read = await mapLimit(
    found.objects.map((o, i) => ({ o, address: addresses[i] })),
    8,
    ({ o, address }) => importResource({ kind: o.kind, address, ctx, id: o.importId }),
  );

  const objects: ExportedObject[] = [];
  const needs = new Map<string, Discovered['needs']>();
  const diagnostics: Diagnostic[] = [];
  found.objects.forEach((o, i) => {
    const address = addresses[i];
    const result = read[i];
    if (result.value) {
      const { kind, importId, tenant } = o;
      objects.push({ kind, name: names[i], address, importId, tenant, state: result.value, config: configOf(kind.attributes, result.value), dependsOn: [] });
      needs.set(address, o.needs);
    } else {
      for (const d of result.diagnostics) {
        // An object deleted between listing and reading is only left out; any other failure is an error.
        const vanished = d.code === 'import_not_found';
        diagnostics.push(vanished ? { ...d, severity: 'warning', detail: `${d.detail}\nIt was deleted while the export ran, so it is left out.` } : d);
      }
    }
  });

  return {
    root: found.root,
    objects: withDependencies(objects, needs),
    stack: opts.stack ?? slug(found.root.name).replace(/_/g, '-'),
    tenants: found.tenants,
    applications: found.applications,
    diagnostics,
  };
}

/**
 * Orders what the platform requires, as the kinds list it (e.g. an application turned on for a
 * tenant before the tenant's own settings of it). Ids are literals in the export, so without
 * `depends_on` nothing would say so.
 */
function withDependencies(objects: ExportedObject[], needs: ReadonlyMap<string, Discovered['needs']>): ExportedObject[] {
  const addressOf = new Map(objects.map((o) => [`${o.kind.type} ${o.importId}`, o.address]));
  return objects.map((o) => {
    const needed = (needs.get(o.address) ?? []).flatMap((n) => addressOf.get(`${n.type} ${n.importId}`) ?? []);
    return needed.length > 0 ? { ...o, dependsOn: needed } : o;
  });
}
