import { closestName } from '../suggest';
import { type TenantformError } from '../errors';
import { configErrors } from './errors';
import { languageErrors } from './language-errors';
import type { AnyKind } from '../resources/declaration';
import { PROVIDER_TYPE } from '../resources/provider-config';
import { hasOwn, isRecord } from '../plain-json';
import { BLOCK_ARGUMENTS, extraneousArguments, notCarriedOut } from './block-arguments';

/**
 * The meta-arguments of a resource or data block that tenantform reads itself (count and
 * for_each are in repetition.ts). Each returns the value or throws the error naming the
 * argument and what it should be.
 */

/** `provider = "tenantform"` or `"tenantform.<alias>"` (cdktf writes the name; `${...}` around it is accepted too). */
export function providerReference(address: string, raw: unknown): string {
  if (raw === undefined || raw === null) return PROVIDER_TYPE;
  const name = typeof raw === 'string' ? raw.replace(/^\$\{(.*)\}$/, '$1').trim() : undefined;
  if (name === undefined || !new RegExp(`^${PROVIDER_TYPE}(\\.[A-Za-z_][A-Za-z0-9_-]*)?$`).test(name)) {
    throw configErrors.invalidMetaArgument(address, 'provider', `"${PROVIDER_TYPE}" or "${PROVIDER_TYPE}.<alias>" naming a provider block`);
  }
  return name;
}

/**
 * The `lifecycle` block: an object, or (Terraform JSON's block syntax) a list holding one; every
 * argument in it one that Terraform's lifecycle takes. Problems are collected (`report`), so every one is named.
 */
export function lifecycleBlock(address: string, raw: unknown, report: (e: TenantformError) => void): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  const body = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
  if (!isRecord(body)) {
    report(configErrors.invalidMetaArgument(address, 'lifecycle', 'a lifecycle block (an object of its arguments)'));
    return {};
  }
  for (const k of extraneousArguments(body, 'lifecycle'))
    report(languageErrors.unsupportedArgument(address, ['lifecycle', k], 'A lifecycle block', BLOCK_ARGUMENTS.lifecycle));
  for (const k of notCarriedOut(body, 'lifecycle')) report(configErrors.unsupportedMetaArgument(address, ['lifecycle', k]));
  return body;
}

export function preventDestroy(address: string, raw: unknown): boolean {
  if (raw === undefined || raw === null || typeof raw === 'boolean') return raw === true;
  throw configErrors.invalidMetaArgument(address, 'lifecycle.prevent_destroy', 'true or false');
}

export function dependsOn(address: string, raw: unknown): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((d) => typeof d !== 'string')) {
    throw configErrors.invalidMetaArgument(address, 'depends_on', 'a list of addresses such as "tenantform_infra_component.primary"');
  }
  return (raw as string[]).map((d) => d.replace(/^\$\{(.*)\}$/, '$1').trim());
}

export function ignoreChanges(address: string, kind: AnyKind, raw: unknown): string[] | 'all' | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'all' || (Array.isArray(raw) && raw.length === 1 && raw[0] === 'all')) return 'all';
  const names = Array.isArray(raw) ? raw.map((n) => (typeof n === 'string' ? n.replace(/^\$\{(.*)\}$/, '$1') : n)) : undefined;
  // An entry that names no attribute is named, with the attribute it most likely meant.
  const unknown = names?.findIndex((n) => typeof n === 'string' && !hasOwn(kind.attributes, n)) ?? -1;
  if (names && unknown >= 0) {
    const name = names[unknown] as string;
    throw configErrors.unknownIgnoredAttribute(
      address,
      unknown,
      name,
      kind.type,
      Object.keys(kind.attributes),
      closestName(name, Object.keys(kind.attributes)),
    );
  }
  if (!names || names.some((n) => typeof n !== 'string')) {
    throw configErrors.invalidMetaArgument(
      address,
      'lifecycle',
      `ignore_changes to be "all" or a list of attribute names of ${kind.type} (${Object.keys(kind.attributes).join(', ')})`,
    );
  }
  return names as string[];
}
