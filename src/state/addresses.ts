/**
 * Terraform's resource instance addresses: `type.name`, `type.name[0]` (count),
 * `type.name["key"]` (for_each), each with `data.` in front for data sources.
 */

export type InstanceKey = number | string;

export interface InstanceAddress {
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  /** The block's address, without the instance key. */
  readonly block: string;
  readonly key?: InstanceKey;
}

export function instanceAddress(block: string, key: InstanceKey | undefined): string {
  if (key === undefined) return block;
  return typeof key === 'number' ? `${block}[${key}]` : `${block}[${JSON.stringify(key)}]`;
}

const ADDRESS = /^(data\.)?([A-Za-z_][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_-]*)(?:\[(\d+|"(?:[^"\\]|\\.)*")\])?$/;

/** The parts of an instance address; undefined when it is not one. */
export function parseInstanceAddress(address: string): InstanceAddress | undefined {
  const m = ADDRESS.exec(address);
  if (!m) return undefined;
  const block = `${m[1] ?? ''}${m[2]}.${m[3]}`;
  const key = m[4] === undefined ? undefined : m[4].startsWith('"') ? (JSON.parse(m[4]) as string) : Number(m[4]);
  return { mode: m[1] ? 'data' : 'managed', type: m[2], name: m[3], block, ...(key === undefined ? {} : { key }) };
}

/** The block an instance address belongs to (the address itself when it has no key). */
export function blockOf(address: string): string {
  return parseInstanceAddress(address)?.block ?? address;
}
