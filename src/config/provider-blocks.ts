import type { Diagnostic } from '../diagnostics';
import { configErrors } from './errors';
import type { EvalContext } from '../expressions';
import { hasOwn, ownValue, plainObject } from '../plain-json';
import type { Attributes } from '../resources/attributes';
import { PROVIDER_ATTRIBUTES, PROVIDER_TYPE } from '../resources/provider-config';
import { validateAttributes } from '../resources/validate';
import { containsUnknown } from '../resources/values';
import { evaluateValue } from './expression-scope';

/**
 * Every `tenantform` provider block by name (`tenantform`, `tenantform.<alias>`); cdktf writes a
 * list, hand-written JSON may write one object. Without an unaliased block the default
 * configuration is empty (credentials from the environment), as in Terraform.
 */
export function providerBlocks(
  candidates: readonly Record<string, unknown>[],
  context: EvalContext,
  diagnostics: Diagnostic[],
): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const candidate of candidates) {
    const alias = ownValue(candidate, 'alias');
    if (alias !== undefined && alias !== null && (typeof alias !== 'string' || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(alias))) {
      diagnostics.push(configErrors.invalidMetaArgument(`provider.${PROVIDER_TYPE}`, 'alias', 'a name such as "us"').toDiagnostic());
      continue;
    }
    const name = typeof alias === 'string' ? `${PROVIDER_TYPE}.${alias}` : PROVIDER_TYPE;
    if (out.has(name)) {
      diagnostics.push(configErrors.duplicateProvider(name).toDiagnostic());
      continue;
    }
    out.set(name, providerArguments(name, candidate, context, diagnostics));
  }
  if (!out.has(PROVIDER_TYPE)) out.set(PROVIDER_TYPE, plainObject<unknown>());
  return out;
}

/**
 * One provider block's arguments: evaluated (variables and locals; objects are not known before
 * anything is read), known and well typed. Secrets are never quoted in a problem.
 */
function providerArguments(name: string, block: Record<string, unknown>, context: EvalContext, diagnostics: Diagnostic[]): Record<string, unknown> {
  const address = `provider.${name}`;
  const out = plainObject<unknown>();
  const attributes: Attributes = PROVIDER_ATTRIBUTES;
  for (const [k, v] of Object.entries(block)) {
    if (k === '//' || k === 'alias') continue;
    const sensitive = hasOwn(attributes, k) && attributes[k].sensitive === true;
    const evaluated = evaluateValue(v, context, address, [k]);
    if (evaluated.diagnostics.length > 0 || containsUnknown(evaluated.value)) {
      diagnostics.push(
        configErrors.unsupportedExpression(address, [k], typeof v === 'string' ? v : '', sensitive || evaluated.sensitive.length > 0).toDiagnostic(),
      );
      continue;
    }
    out[k] = evaluated.value;
  }
  diagnostics.push(...validateAttributes(PROVIDER_ATTRIBUTES, out, address));
  return out;
}
