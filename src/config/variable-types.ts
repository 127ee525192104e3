import { plainObject } from '../plain-json';
import { SensitiveValue, SetValue, UNKNOWN, type Value } from '../expressions';

/**
 * Terraform's type constraints of `variable` blocks (`string`, `list(string)`,
 * `object({ name = string, size = optional(number) })`, ...) and the conversions Terraform
 * makes when a value is given for one: `"5"` for a number is 5, a tuple for a set is a set.
 */
export type TypeConstraint =
  | { readonly kind: 'string' | 'number' | 'bool' | 'any' }
  | { readonly kind: 'list' | 'set' | 'map'; readonly element: TypeConstraint }
  | { readonly kind: 'tuple'; readonly elements: readonly TypeConstraint[] }
  | { readonly kind: 'object'; readonly attributes: ReadonlyMap<string, { readonly type: TypeConstraint; readonly optional: boolean }> };

/** Parses a type constraint as cdktf writes it (`"list(string)"`); a message when it cannot. */
export function parseTypeConstraint(text: string): TypeConstraint | { problem: string } {
  const reader = { text: text.replace(/\$\{(.*)\}/s, '$1'), pos: 0 };
  try {
    const t = readType(reader);
    skipBlank(reader);
    if (reader.pos < reader.text.length) throw new Error(`unexpected "${reader.text.slice(reader.pos)}"`);
    return t;
  } catch (err) {
    return { problem: `"${text}" is not a type constraint (${(err as Error).message})` };
  }
}

interface Reader {
  readonly text: string;
  pos: number;
}

function skipBlank(r: Reader): void {
  while (/\s/.test(r.text[r.pos] ?? '')) r.pos++;
}

function expect(r: Reader, s: string): void {
  skipBlank(r);
  if (!r.text.startsWith(s, r.pos)) throw new Error(`expected "${s}" at ${r.pos}`);
  r.pos += s.length;
}

function word(r: Reader): string {
  skipBlank(r);
  const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(r.text.slice(r.pos));
  if (!m) throw new Error(`expected a type at ${r.pos}`);
  r.pos += m[0].length;
  return m[0];
}

function readType(r: Reader): TypeConstraint {
  const name = word(r);
  switch (name) {
    case 'string':
    case 'number':
    case 'bool':
    case 'any':
      return { kind: name };
    case 'list':
    case 'set':
    case 'map': {
      expect(r, '(');
      const element = readType(r);
      expect(r, ')');
      return { kind: name, element };
    }
    case 'tuple': {
      expect(r, '(');
      expect(r, '[');
      const elements: TypeConstraint[] = [];
      while ((skipBlank(r), r.text[r.pos] !== ']')) {
        elements.push(readType(r));
        skipBlank(r);
        if (r.text[r.pos] === ',') r.pos++;
      }
      expect(r, ']');
      expect(r, ')');
      return { kind: 'tuple', elements };
    }
    case 'object': {
      expect(r, '(');
      expect(r, '{');
      const attributes = new Map<string, { type: TypeConstraint; optional: boolean }>();
      while ((skipBlank(r), r.text[r.pos] !== '}')) {
        const key = word(r);
        expect(r, '=');
        const optional = r.text.slice(r.pos).trimStart().startsWith('optional(');
        if (optional) {
          word(r);
          expect(r, '(');
        }
        attributes.set(key, { type: readType(r), optional });
        if (optional) {
          skipBlank(r);
          // optional(type, default): the default is left out here; a missing attribute is null.
          if (r.text[r.pos] === ',') throw new Error('optional() with a default is not supported');
          expect(r, ')');
        }
        skipBlank(r);
        if (r.text[r.pos] === ',') r.pos++;
      }
      expect(r, '}');
      expect(r, ')');
      return { kind: 'object', attributes };
    }
    default:
      throw new Error(`unknown type "${name}"`);
  }
}

/** Whether a value given on the command line or in TF_VAR_ is taken as text rather than parsed as an expression. */
export function takesRawText(t: TypeConstraint | undefined): boolean {
  return !t || t.kind === 'string' || t.kind === 'number' || t.kind === 'bool' || t.kind === 'any';
}

/** Converts a value to the type as Terraform does; a message saying why not when it cannot. */
export function convertTo(t: TypeConstraint, v: Value, at = ''): { value: Value } | { problem: string } {
  try {
    return { value: convert(t, v, at) };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

function convert(t: TypeConstraint, v: Value, at: string): Value {
  if (v === null || v === UNKNOWN || t.kind === 'any') return v;
  if (v instanceof SensitiveValue) return new SensitiveValue(convert(t, v.value, at));
  const where = at ? ` at ${at}` : '';
  const elements = Array.isArray(v) ? v : v instanceof SetValue ? v.elements : undefined;
  const isMap = typeof v === 'object' && !elements;
  switch (t.kind) {
    case 'string':
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      throw new Error(`a string is required${where}`);
    case 'number':
      if (typeof v === 'number') return v;
      if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v.trim())) return Number(v);
      throw new Error(`a number is required${where}`);
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      throw new Error(`a bool is required${where}`);
    case 'list':
    case 'set': {
      if (!elements) throw new Error(`a ${t.kind} is required${where}`);
      const converted = elements.map((e, i) => convert(t.element, e, `${at}[${i}]`));
      return t.kind === 'set' ? new SetValue(converted) : converted;
    }
    case 'tuple':
      if (!elements || elements.length !== t.elements.length) throw new Error(`a tuple of ${t.elements.length} elements is required${where}`);
      return elements.map((e, i) => convert(t.elements[i], e, `${at}[${i}]`));
    case 'map': {
      if (!isMap) throw new Error(`a map is required${where}`);
      const out: Record<string, Value> = plainObject<Value>();
      for (const [k, x] of Object.entries(v)) out[k] = convert(t.element, x as Value, `${at}["${k}"]`);
      return out;
    }
    case 'object': {
      if (!isMap) throw new Error(`an object is required${where}`);
      const given = v as Readonly<Record<string, Value>>;
      const out: Record<string, Value> = plainObject<Value>();
      for (const [k, a] of t.attributes) {
        if (!Object.prototype.hasOwnProperty.call(given, k)) {
          if (!a.optional) throw new Error(`attribute "${k}" is required${where}`);
          out[k] = null;
        } else out[k] = convert(a.type, given[k], at ? `${at}.${k}` : k);
      }
      return out;
    }
  }
}
