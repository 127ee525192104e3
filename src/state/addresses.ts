/**
 * Terraform's resource instance addresses: `type.name`, `type.name[0]` (count),
 * `type.name["key"]` (for_each), each with `data.` in front for data sources, and each inside a
 * module instance: `module.customer["acme"].tenantform_tenant.this`.
 */

export type InstanceKey = number | string;

export interface InstanceAddress {
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  /** The block's address, without the instance key (with the module path in front). */
  readonly block: string;
  readonly key?: InstanceKey;
  /** The module instance it is declared in (`module.customer["acme"]`); absent in the root module. */
  readonly module?: string;
}

export function instanceAddress(block: string, key: InstanceKey | undefined): string {
  if (key === undefined) return block;
  return typeof key === 'number' ? `${block}[${key}]` : `${block}[${JSON.stringify(key)}]`;
}

const NAME = '[A-Za-z_][A-Za-z0-9_-]*';
const KEY = String.raw`\[(?:\d+|"(?:[^"\\]|\\.)*")\]`;
/** A module instance path: `module.a`, `module.a[0].module.b["k"]`. */
export const MODULE_PATH = `module\\.${NAME}(?:${KEY})?(?:\\.module\\.${NAME}(?:${KEY})?)*`;
/** An instance address, as a pattern other patterns are built from. */
export const INSTANCE_ADDRESS = `(?:${MODULE_PATH}\\.)?(?:data\\.)?${NAME}\\.${NAME}(?:${KEY})?`;

const ADDRESS = new RegExp(`^(?:(${MODULE_PATH})\\.)?(data\\.)?(${NAME})\\.(${NAME})(?:\\[(\\d+|"(?:[^"\\\\]|\\\\.)*")\\])?$`);

/** The parts of an instance address; undefined when it is not one. */
export function parseInstanceAddress(address: string): InstanceAddress | undefined {
  const m = ADDRESS.exec(address);
  if (!m) return undefined;
  const [, module, data, type, name, rawKey] = m;
  // `module.customer` is a module call, never a resource of a type named `module`.
  if (type === 'module' && !data) return undefined;
  const block = `${module ? `${module}.` : ''}${data ?? ''}${type}.${name}`;
  const key = rawKey === undefined ? undefined : rawKey.startsWith('"') ? (JSON.parse(rawKey) as string) : Number(rawKey);
  return { mode: data ? 'data' : 'managed', type, name, block, ...(key === undefined ? {} : { key }), ...(module ? { module } : {}) };
}

/** The block an instance address belongs to (the address itself when it has no key). */
export function blockOf(address: string): string {
  return parseInstanceAddress(address)?.block ?? address;
}

/** Whether `-target=target` names the object at `address`: itself, the block it is an instance of, or a module it is in. */
export function isNamedByTarget(address: string, target: string): boolean {
  return address === target || blockOf(address) === target || (isModulePath(target) && (address.startsWith(`${target}.`) || address.startsWith(`${target}[`)));
}

/** A block's address from its parts: the module path, then `data.` for a data source. */
export function blockAddress(r: { readonly module?: string; readonly mode: 'managed' | 'data'; readonly type: string; readonly name: string }): string {
  return `${r.module ? `${r.module}.` : ''}${r.mode === 'data' ? 'data.' : ''}${r.type}.${r.name}`;
}

const MODULE_PATH_ONLY = new RegExp(`^${MODULE_PATH}$`);

/** Whether the text is a module instance path (`module.customer`, `module.customer["acme"]`). */
export function isModulePath(text: string): boolean {
  return MODULE_PATH_ONLY.test(text);
}

/** Whether an address (of an instance or a block) names a data source, in the root module or inside one. */
export function isDataAddress(address: string): boolean {
  return address.startsWith('data.') || (address.startsWith('module.') && parseInstanceAddress(address)?.mode === 'data');
}
