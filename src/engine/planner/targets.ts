import type { Diagnostic } from '../../diagnostics';
import { dependencies, isGroupNode, type Configuration } from '../../config/config';
import { withDependencies } from '../../graph/graph';
import { isNamedByTarget } from '../../state/addresses';

/** Every address: a plan without `--target` (no set of every address made). */
const EVERYTHING: Pick<ReadonlySet<string>, 'has'> = { has: () => true };

export function selectTargets(
  opts: { readonly targets: readonly string[]; readonly destroy?: boolean },
  configuration: Configuration,
  recorded: ReadonlyMap<string, unknown>,
  diagnostics: Diagnostic[],
): Pick<ReadonlySet<string>, 'has'> {
  if (opts.targets.length === 0) return EVERYTHING;
  const deps = dependencies(configuration);
  const everything = new Set([...[...deps.keys()].filter((a) => !isGroupNode(configuration, a)), ...recorded.keys()]);
  // A block's address targets all its instances, and a module's everything inside it, as in Terraform.
  const within = (a: string, t: string) => a !== t && isNamedByTarget(a, t);
  const targets = opts.targets.flatMap((t) => (everything.has(t) ? [t] : [...everything].filter((a) => within(a, t))));
  for (const t of opts.targets) {
    if (!everything.has(t) && !targets.some((a) => within(a, t))) {
      diagnostics.push({
        severity: 'error',
        summary: 'No such resource',
        detail: `--target ${t} is neither declared in the configuration nor recorded in the state. Targets are addresses such as tenantform_infra_component.primary.`,
        address: t,
      });
    }
  }
  // Destroying an object destroys what depends on it; creating or updating one needs what it depends on.
  return opts.destroy ? withDependents(targets, deps) : withDependencies(targets, deps);
}

/** The addresses and everything that depends on them, transitively (one pass over the edges). */
function withDependents(addresses: readonly string[], deps: ReturnType<typeof dependencies>): Set<string> {
  const dependents = new Map<string, string[]>();
  for (const [address, needs] of deps) for (const d of needs) (dependents.get(d) ?? dependents.set(d, []).get(d)!).push(address);
  const out = new Set(addresses);
  const stack = [...addresses];
  while (stack.length > 0) {
    for (const dependent of dependents.get(stack.pop()!) ?? []) {
      if (out.has(dependent)) continue;
      out.add(dependent);
      stack.push(dependent);
    }
  }
  return out;
}
