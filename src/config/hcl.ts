import { isRecord, plainObject } from '../plain-json';

/**
 * The converter (`@cdktn/hcl2json`) writes a `.tf` file as JSON with every block as a list of
 * bodies: `resource.T.N` is `[{...}]`, `locals` and `terraform` lists of bodies, a `backend` a
 * list under its type, `lifecycle` a list of one. Expressions come out as `${...}` templates, as
 * in Terraform JSON. This turns that shape into the Terraform JSON that `cdktf synth` writes and
 * the rest of the configuration reads. Blocks declared twice in the file are `duplicates`.
 */
export interface NormalizedFile {
  readonly document: Record<string, unknown>;
  /** Blocks the file declares twice: what they are and their address. */
  readonly duplicates: ReadonlyArray<{ readonly what: string; readonly address: string }>;
}

/** The blocks named by one label, with what a duplicate is called and its address. */
const NAMED: Readonly<Record<string, { what: string; prefix: string }>> = {
  variable: { what: 'variable declaration', prefix: 'var.' },
  output: { what: 'output definition', prefix: 'output.' },
  module: { what: 'module call', prefix: 'module.' },
  check: { what: 'check block', prefix: 'check.' },
};

/** Blocks whose bodies are lists in Terraform JSON too (each list is kept, its bodies normalized). */
const LISTED = new Set(['moved', 'removed', 'import']);

export function normalizeHcl(converted: Record<string, unknown>): NormalizedFile {
  const duplicates: Array<{ what: string; address: string }> = [];
  const document: Record<string, unknown> = plainObject();
  for (const [block, value] of Object.entries(converted)) {
    if (block === 'resource' || block === 'data') document[block] = labelledTwice(block, value, duplicates);
    else if (Object.hasOwn(NAMED, block)) document[block] = labelledOnce(block, value, duplicates);
    else if (block === 'locals') document[block] = mergedBodies(value, (name) => duplicates.push({ what: 'local value definition', address: `local.${name}` }));
    else if (block === 'terraform') document[block] = terraformBlock(value);
    else if (LISTED.has(block)) document[block] = Array.isArray(value) ? value.map((b) => staticAddresses(block, b)) : value;
    // provider blocks stay lists by name (aliases), as cdktf writes them; anything else is refused by name later.
    else document[block] = value;
  }
  return { document, duplicates };
}

/** `resource.T.N: [body]` → `resource.T.N: body`. */
function labelledTwice(block: 'resource' | 'data', value: unknown, duplicates: Array<{ what: string; address: string }>): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = plainObject();
  for (const [type, byName] of Object.entries(value)) {
    if (!isRecord(byName)) {
      out[type] = byName;
      continue;
    }
    const named: Record<string, unknown> = plainObject();
    for (const [name, bodies] of Object.entries(byName)) {
      const address = `${block === 'data' ? 'data.' : ''}${type}.${name}`;
      named[name] = single(bodies, () => duplicates.push({ what: block === 'data' ? 'data source' : 'resource', address }), resourceBody);
    }
    out[type] = named;
  }
  return out;
}

/** `variable.N: [body]` → `variable.N: body` (and outputs, modules, checks). */
function labelledOnce(block: string, value: unknown, duplicates: Array<{ what: string; address: string }>): unknown {
  if (!isRecord(value)) return value;
  const { what, prefix } = NAMED[block];
  const out: Record<string, unknown> = plainObject();
  for (const [name, bodies] of Object.entries(value))
    out[name] = single(
      bodies,
      () => duplicates.push({ what, address: `${prefix}${name}` }),
      (body) => namedBody(block, body),
    );
  return out;
}

/** The one body of a block; a second one is a duplicate. */
function single(bodies: unknown, duplicate: () => void, normalize: (body: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (!Array.isArray(bodies)) return isRecord(bodies) ? normalize(bodies) : bodies;
  if (bodies.length > 1) duplicate();
  return isRecord(bodies[0]) ? normalize(bodies[0]) : bodies[0];
}

/** Several bodies (`locals`, `terraform`) merged into one; a name set twice is `duplicate(name)`. */
function mergedBodies(value: unknown, duplicate: (name: string) => void): unknown {
  if (!Array.isArray(value)) return value;
  const out: Record<string, unknown> = plainObject();
  for (const body of value.filter(isRecord))
    for (const [name, v] of Object.entries(body)) {
      if (Object.hasOwn(out, name)) duplicate(name);
      else out[name] = v;
    }
  return out;
}

/** `terraform` bodies merged; `backend.TYPE: [settings]` → `backend.TYPE: settings`; `required_providers` one object. */
function terraformBlock(value: unknown): unknown {
  const merged = mergedBodies(value, () => undefined);
  if (!isRecord(merged)) return merged;
  const out: Record<string, unknown> = { ...merged };
  for (const key of ['backend', 'cloud'])
    if (isRecord(out[key])) out[key] = Object.fromEntries(Object.entries(out[key]).map(([type, settings]) => [type, firstBody(settings)]));
  if (Array.isArray(out.required_providers)) out.required_providers = mergedBodies(out.required_providers, () => undefined);
  return out;
}

function firstBody(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 ? value[0] : value;
}

/** A resource or data body: `lifecycle` one object, its addresses and attribute names without `${...}`. */
function resourceBody(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  if (out.depends_on !== undefined) out.depends_on = unwrapped(out.depends_on);
  if (out.provider !== undefined) out.provider = unwrapped(out.provider);
  if (out.lifecycle !== undefined) {
    const lifecycle = firstBody(out.lifecycle);
    out.lifecycle = isRecord(lifecycle)
      ? {
          ...lifecycle,
          ...(lifecycle.ignore_changes === undefined ? {} : { ignore_changes: unwrapped(lifecycle.ignore_changes) }),
          ...(lifecycle.replace_triggered_by === undefined ? {} : { replace_triggered_by: unwrapped(lifecycle.replace_triggered_by) }),
        }
      : lifecycle;
  }
  return out;
}

/** A variable's `type` and an output's `depends_on` are written bare in HCL and come out as `${...}`. */
function namedBody(block: string, body: Record<string, unknown>): Record<string, unknown> {
  if (block === 'variable' && typeof body.type === 'string') return { ...body, type: unwrapped(body.type) };
  if (block === 'output' && body.depends_on !== undefined) return { ...body, depends_on: unwrapped(body.depends_on) };
  return body;
}

/** `moved.from`/`to`, `removed.from`, `import.to` are addresses, not expressions. */
function staticAddresses(block: string, body: unknown): unknown {
  if (!isRecord(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const key of block === 'moved' ? ['from', 'to'] : block === 'removed' ? ['from'] : ['to', 'provider'])
    if (out[key] !== undefined) out[key] = unwrapped(out[key]);
  if (block === 'removed' && out.lifecycle !== undefined) out.lifecycle = firstBody(out.lifecycle);
  return out;
}

/** `"${name}"` → `"name"`, element by element in a list; anything else as it is. */
function unwrapped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapped);
  if (typeof value !== 'string') return value;
  const match = /^\$\{((?:(?!\$\{)[^])*)\}$/.exec(value);
  return match ? match[1].trim() : value;
}
