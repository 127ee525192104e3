import { StateStore } from '../state/state';
import type { TenantExport } from './model';

/**
 * Writes a new state (Terraform format version 4, fresh lineage, serial 1) holding every
 * exported object with its attributes as `tenantform import` records them. It goes through
 * the reconciler's state store, so it is the same file `tenantform apply` writes. An existing
 * file is never replaced: it may be the state of a stack in use.
 */
export async function writeExportState(path: string, exp: TenantExport): Promise<void> {
  const store = await StateStore.open(path);
  if (store.existed) {
    throw new Error(`${path} already exists. An export never overwrites a state file: choose another path, or move that file away first.`);
  }
  for (const o of exp.objects) store.put(o.address, o.kind, o.state, o.dependsOn);
  await store.save();
}
