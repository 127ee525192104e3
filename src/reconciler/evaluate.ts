import { problemToDiagnostic, type Diagnostic } from '../diagnostics';
import type { State } from '../resources/declaration';
import { validateConfig } from '../resources/validate';
import type { DeclaredObject } from './config';
import { resolveReferences, valueAt, type Lookup } from './references';

/**
 * The one place a declared object's arguments become values: references resolved with what is
 * known now, then validated again, so a value that is only wrong once resolved
 * (`"x-${data.tenantform_tenant.a.id}"` where an id is expected) is refused before any request.
 * Values still unknown are validated when this runs again during apply.
 */
export function evaluateArguments(o: Pick<DeclaredObject, 'address' | 'kind' | 'config'>, lookup: Lookup): { config: State; diagnostics: Diagnostic[] } {
  const config = resolveReferences(o.config, lookup) as State;
  return { config, diagnostics: validateConfig(o.kind, config, o.address).map(problemToDiagnostic) };
}

/** Answers references from the values known so far (undefined: not known yet). */
export function lookupIn(values: ReadonlyMap<string, State>): Lookup {
  return (target, path) => (values.has(target) ? valueAt(values.get(target), path) : undefined);
}
