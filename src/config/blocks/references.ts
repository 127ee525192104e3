import type { TenantformError } from '../../errors';
import { configErrors } from '../errors';
import type { Attribute } from '../../resources/attributes';
import { hasOwn } from '../../plain-json';
import type { Value } from '../../expressions';
import { instanceAddress } from '../../state/addresses';
import { closestName } from '../../suggest';
import type { Reference } from '../expression-scope';
import type { DeclaredOutput, Locals } from '../language';
import type { DeclaredCheck } from '../checks';
import { hasInstance } from '../dependencies';
import { REMOTE_STATE_TYPE } from '../model';
import type { BlockInstances, DeclaredObject } from '../configuration';
import type { DeclaredObjects } from './objects';

/**
 * Every reference of the objects, locals, outputs and checks checked against what is declared: a
 * declared object (an instance of a repeated one), one of its kind's attributes, steps that fit
 * the attribute's type. A holder with a wrong reference is `unparsed`: not evaluated further.
 */
export function checkReferences(
  declared: DeclaredObjects,
  from: { readonly locals: Locals; readonly outputs: ReadonlyMap<string, DeclaredOutput>; readonly checks: readonly DeclaredCheck[] },
  remoteStates: ReadonlyMap<string, Value>,
  report: (err: unknown) => void,
): void {
  const { templates, blocks: blockInstances, unparsed } = declared;
  const { locals, outputs, checks } = from;
  // Most objects reference nothing: only references are listed, nothing per object.
  const references: Array<{ address: string; reference: Reference }> = [];
  for (const o of templates.values()) for (const reference of o.references) references.push({ address: o.address, reference });
  references.push(...locals.references);
  for (const o of outputs.values()) for (const reference of o.references) references.push({ address: `output.${o.name}`, reference });
  for (const c of checks) for (const reference of c.references) references.push({ address: `check.${c.name}`, reference });
  const declaredBlockNames = [...templates.keys()];
  for (const { address, reference } of references) {
    if (reference.target.startsWith(`data.${REMOTE_STATE_TYPE}.`) && remoteStates.has(reference.target.split('.')[2])) continue;
    const problem = referenceProblem(address, reference, templates.get(reference.target), blockInstances.get(reference.target), declaredBlockNames);
    if (!problem) continue;
    report(problem);
    unparsed.add(address);
  }
}

/** Why a reference does not name a declared object's attribute (an instance key first for a repeated block); undefined when it does. */
function referenceProblem(
  from: string,
  ref: Reference,
  target: DeclaredObject | undefined,
  block: BlockInstances | undefined,
  declared: readonly string[],
): TenantformError | undefined {
  if (!target || !block) return configErrors.unknownReference(from, ref.at, ref.target, closestName(ref.target, declared));
  let attribute = ref.attribute;
  if (block.each) {
    const key = attribute[0];
    // The whole block, or an instance chosen by an expression: known when evaluated.
    if (key === undefined) return undefined;
    if (typeof key !== (block.each === 'list' ? 'number' : 'string') || !hasInstance(block, instanceAddress(ref.target, key))) {
      const keys = block.instances.map((i) => i.slice(ref.target.length));
      const meant = typeof key === 'string' ? closestName(`[${JSON.stringify(key)}]`, keys) : undefined;
      return configErrors.unknownReference(from, ref.at, instanceAddress(ref.target, key), meant && `${ref.target}${meant}`);
    }
    attribute = attribute.slice(1);
    if (attribute.length === 0) return undefined;
  }
  if (typeof attribute[0] !== 'string' || !hasOwn(target.kind.attributes, attribute[0])) {
    return configErrors.unknownAttributeReference(from, ref.at, ref.target, String(attribute[0]));
  }
  return stepProblem(from, ref, `${ref.target}.${attribute[0]}`, target.kind.attributes[attribute[0]], attribute.slice(1));
}

/** Why the steps after an attribute do not fit its type (an attribute of a string, an index into an object). */
function stepProblem(from: string, ref: Reference, reached: string, attribute: Attribute, steps: ReadonlyArray<string | number>): TenantformError | undefined {
  if (steps.length === 0) return undefined;
  const [step, ...rest] = steps;
  const fail = (what: string) => configErrors.unsupportedAttributeStep(from, ref.at, reached, what, step);
  switch (attribute.type) {
    case 'object':
      if (typeof step !== 'string') return fail('an object');
      if (!hasOwn(attribute.attributes, step)) return fail('an object');
      return stepProblem(from, ref, `${reached}.${step}`, attribute.attributes[step], rest);
    case 'list':
      if (typeof step !== 'number') return fail('a list of strings');
      return rest.length > 0 ? configErrors.unsupportedAttributeStep(from, ref.at, `${reached}[${step}]`, 'a string', rest[0]) : undefined;
    case 'nested': {
      // A set's objects have no index or key to select with, as in Terraform.
      if (attribute.nesting === 'set') return fail('a set of objects (tolist() it, or for_each over it)');
      if (typeof step !== (attribute.nesting === 'list' ? 'number' : 'string'))
        return fail(attribute.nesting === 'list' ? 'a list of objects' : 'a map of objects');
      return stepProblem(from, ref, `${reached}[${JSON.stringify(step)}]`, { ...attribute, type: 'object' }, rest);
    }
    case 'json':
      // JSON is a string in the language: jsondecode() it to reach inside.
      return fail('a string of JSON (jsondecode() it first)');
    default:
      return fail(`a ${attribute.type}`);
  }
}
