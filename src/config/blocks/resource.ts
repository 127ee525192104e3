import { formatPath, type AttributePath } from '../../diagnostics';
import { TenantformError } from '../../errors';
import { configErrors } from '../errors';
import { languageErrors } from '../language-errors';
import type { State } from '../../resources/declaration';
import { PROVIDER_TYPE } from '../../resources/provider-config';
import { KINDS } from '../../resources/registry';
import { isRecord, plainObject, sharedIfEmpty } from '../../plain-json';
import { referencesIn, type Reference } from '../expression-scope';
import { targetsThroughLocals, type DeclaredNames, type Locals } from '../language';
import { dependsOn, lifecycleBlock, ignoreChanges, preventDestroy, providerReference } from '../meta-arguments';
import { hasMetadata, withoutMetadata } from '../cdktf-metadata';
import { assertionsIn, type CheckAssertion } from '../checks';
import type { DeclaredObject } from '../configuration';
import type { ObjectBlock } from '../model';

/** A resource's meta-arguments: those its plan carries out, and those refused by name. */
export const CARRIED_OUT_META = ['count', 'for_each', 'depends_on', 'provider', 'lifecycle'] as const;
export const UNSUPPORTED_META = ['provisioner', 'connection'] as const;
const META = new Set<string>(['//', ...CARRIED_OUT_META, ...UNSUPPORTED_META]);

/** One block as a declared object; problems with its meta-arguments are collected, not thrown, so every problem is reported. */
export function declaredObject(
  { address, module, mode, type, name }: Omit<ObjectBlock, 'body'>,
  body: unknown,
  names: DeclaredNames & { readonly perInstance: ReadonlySet<string> },
  locals: Locals,
  problems: TenantformError[],
): DeclaredObject | undefined {
  const kind = KINDS.ofMode(mode, type);
  if (!kind) {
    const ofMode = KINDS.all.filter((k) => (k.kind === 'data') === (mode === 'data')).map((k) => k.type);
    throw configErrors.unknownType(address, type, KINDS.typeNames(), ofMode);
  }
  if (!isRecord(body)) throw configErrors.invalidMetaArgument(address, 'block', 'an object of arguments');
  for (const meta of UNSUPPORTED_META) if (body[meta] !== undefined) problems.push(configErrors.unsupportedMetaArgument(address, [meta]));
  const collect = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (err) {
      if (!(err instanceof TenantformError)) throw err;
      problems.push(err);
      return undefined;
    }
  };
  const provider = collect(() => providerReference(address, body.provider)) ?? PROVIDER_TYPE;
  const config = plainObject() as State;
  const keys = Object.keys(body);
  // By index, as in normalize (resources/values.ts): once per declared object.
  for (let i = 0; i < keys.length; i++) {
    const v = body[keys[i]];
    if (!META.has(keys[i])) config[keys[i]] = hasMetadata(v) ? withoutMetadata(v) : v;
  }
  const lifecycle = lifecycleBlock(address, body.lifecycle, (e) => problems.push(e));
  const used = referencesIn(config, address, names, problems);
  for (const r of used.references) if (r.target === address) problems.push(languageErrors.selfReference(address, r.at));
  const conditions = conditionsOf(address, mode, lifecycle, names, problems);
  // What a condition refers to is waited for too, as Terraform orders it.
  for (const r of conditions.references) if (r.target !== address) used.references.push(r);
  return {
    address,
    block: address,
    mode,
    type,
    name,
    ...(module ? { module } : {}),
    kind,
    config,
    references: sharedIfEmpty(used.references),
    throughLocals: sharedIfEmpty(targetsThroughLocals(used.locals, locals)),
    dependsOn: sharedIfEmpty(collect(() => dependsOn(address, body.depends_on)) ?? []),
    ignoreChanges: collect(() => ignoreChanges(address, kind, lifecycle.ignore_changes)),
    preventDestroy: collect(() => preventDestroy(address, lifecycle.prevent_destroy)) ?? false,
    conditions: conditions.pre.length === 0 && conditions.post.length === 0 ? NO_CONDITIONS : { pre: conditions.pre, post: conditions.post },
    provider,
  };
}

const NO_CONDITIONS = { pre: [], post: [] } as const;

/**
 * A resource's `lifecycle` preconditions and postconditions. `self` (the object itself) is for
 * postconditions only, as in Terraform; a data source's conditions are refused by name.
 */
function conditionsOf(
  address: string,
  mode: 'managed' | 'data',
  lifecycle: Record<string, unknown>,
  names: DeclaredNames & { readonly perInstance: ReadonlySet<string> },
  problems: TenantformError[],
): { pre: CheckAssertion[]; post: CheckAssertion[]; references: Reference[] } {
  const refuse = (at: string, why: string, path: AttributePath) => problems.push(configErrors.invalidMetaArgument(at, formatPath(path), why));
  if (mode === 'data') {
    for (const k of ['precondition', 'postcondition'])
      if (lifecycle[k] !== undefined) problems.push(configErrors.unsupportedMetaArgument(address, ['lifecycle', k]));
    return { pre: [], post: [], references: [] };
  }
  const pre = assertionsIn(lifecycle.precondition, address, ['lifecycle', 'precondition'], refuse);
  const post = assertionsIn(lifecycle.postcondition, address, ['lifecycle', 'postcondition'], refuse);
  const withSelf = { ...names, perInstance: new Set([...names.perInstance, 'self']) };
  const references = [
    ...referencesIn(
      pre.map((a) => [a.condition, a.errorMessage]),
      address,
      names,
      problems,
      ['lifecycle', 'precondition'],
    ).references,
    ...referencesIn(
      post.map((a) => [a.condition, a.errorMessage]),
      address,
      withSelf,
      problems,
      ['lifecycle', 'postcondition'],
    ).references,
  ];
  return { pre, post, references };
}
