import { hasOwn, isRecord, plainObject } from '../plain-json';
import { canonicalJson } from '../resources/values';

/**
 * cdktf's metadata in a synthesized configuration (`"//"` keys: construct paths, versions),
 * which is no argument of anything: left out of the configuration and of its hash, so that
 * moving a construct in the app changes neither.
 */

/** cdktf's metadata key, left out of the configuration at every level. */
export const METADATA_KEY = '//';

/**
 * What the configuration's hash covers, as canonical JSON: the blocks without cdktf's metadata
 * (sorted and filtered as it is written), the variables' values, other stacks' outputs and the
 * modules the root calls.
 */
export function configurationText(doc: Readonly<Record<string, unknown>>, inputs: unknown, remote: unknown, modules?: unknown): string {
  const blocks = (v: unknown) => canonicalJson(v ?? {}, METADATA_KEY);
  // Keys in sorted order, as canonicalJson writes them.
  // `moved` and `removed` only where there is one, so that the hash of a configuration without them stays as it was.
  const moved = doc.moved === undefined ? '' : `,"moved":${canonicalJson(doc.moved, METADATA_KEY)}`;
  const removed = doc.removed === undefined ? '' : `,"removed":${canonicalJson(doc.removed, METADATA_KEY)}`;
  // Likewise the modules (their calls and documents) only where the root calls one.
  const module = modules === undefined ? '' : `,"module":${canonicalJson(modules, METADATA_KEY)}`;
  return `{"data":${blocks(doc.data)},"inputs":${canonicalJson(inputs)},"locals":${blocks(doc.locals)}${module}${moved},"remote":${canonicalJson(remote)}${removed},"resource":${blocks(doc.resource)}}`;
}

export function hasMetadata(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasMetadata);
  if (isRecord(v)) return hasOwn(v, METADATA_KEY) || Object.values(v).some(hasMetadata);
  return false;
}

/** Removes cdktf's `//` metadata keys, at every level. */
export function withoutMetadata(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutMetadata);
  if (isRecord(v)) {
    const out = plainObject<unknown>();
    for (const [k, x] of Object.entries(v)) if (k !== METADATA_KEY) out[k] = withoutMetadata(x);
    return out;
  }
  return v;
}
