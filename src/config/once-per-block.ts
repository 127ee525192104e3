import type { Diagnostic } from '../diagnostics';
import { formatPath } from '../diagnostics';

/** How many instance keys a merged diagnostic names before it counts the rest. */
const KEYS_NAMED = 5;

/**
 * The diagnostics with a problem that every instance of a repeated block has in the same words
 * said once: a typo in a `for_each` block of 200 customers is one error at the block, as
 * Terraform validates a block once, not 200. A problem only some instances have names them.
 *
 * `instancesOf` answers, for an instance's address, its block and the block's instance addresses.
 */
export function oncePerBlock(
  diagnostics: readonly Diagnostic[],
  instancesOf: (address: string) => { readonly block: string; readonly instances: readonly string[] } | undefined,
): Diagnostic[] {
  const groups = new Map<string, Diagnostic[]>();
  const result: Array<Diagnostic | Diagnostic[]> = [];
  for (const d of diagnostics) {
    const repeated = d.address === undefined ? undefined : instancesOf(d.address);
    if (!repeated || repeated.instances.length < 2) {
      result.push(d);
      continue;
    }
    const key = JSON.stringify([repeated.block, d.severity, d.code, formatPath(d.path), d.summary, d.detail]);
    let group = groups.get(key);
    if (!group) {
      group = [];
      groups.set(key, group);
      result.push(group);
    }
    group.push(d);
  }
  return result.map((entry) => (Array.isArray(entry) ? merged(entry, instancesOf(entry[0].address!)!) : entry));
}

function merged(group: readonly Diagnostic[], repeated: { readonly block: string; readonly instances: readonly string[] }): Diagnostic {
  const first = group[0];
  if (group.length === 1) return first;
  const keys = group.map((d) => d.address!.slice(repeated.block.length));
  // Every instance: said at the block, as Terraform says it.
  if (group.length === repeated.instances.length) return { ...first, address: repeated.block };
  const named = keys.slice(0, KEYS_NAMED).join(', ');
  const more = keys.length > KEYS_NAMED ? ` and ${keys.length - KEYS_NAMED} more` : '';
  return { ...first, address: repeated.block, detail: `${first.detail} (Instances ${named}${more}.)` };
}
