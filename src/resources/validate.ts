import { type z } from 'zod';
import { at as withAddress, invalidValue, type AttributePath, type Diagnostic } from '../diagnostics';
import { attributeList, type Attribute, type Attributes, type NestedAttribute } from './attributes';
import type { AnyKind, State } from './declaration';
import { hasOwn, isRecord, NO_ITEMS } from '../plain-json';
import { isUnknown, normalize, parseJson } from './values';
import { closestName } from '../suggest';

/** Describes a found value briefly, for problem reports. */
export function describeFound(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (isUnknown(v)) return 'a value known only after apply';
  const text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function typeWords(a: Attribute): string {
  switch (a.type) {
    case 'string':
      return a.expects ?? 'a string';
    case 'number':
      return a.expects ?? 'a number';
    case 'bool':
      return 'true or false';
    case 'json':
      return `a string holding ${a.holdsObject ? 'a JSON object' : 'JSON'} (for example \`jsonencode(...)\` or \`JSON.stringify(...)\`)`;
    case 'list':
      return `a list of ${a.expects ?? 'strings'}`;
    case 'object':
      return `an object with ${Object.keys(a.attributes).join(', ')}`;
    case 'nested':
      return `${a.nesting === 'map' ? 'a map' : `a ${a.nesting}`} of objects with ${Object.keys(a.attributes).join(', ')}`;
  }
}

/** Whether a value has the attribute's type, before the attribute's own rules. */
const hasType: Readonly<Record<Attribute['type'], (v: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  bool: (v) => typeof v === 'boolean',
  json: (v) => typeof v === 'string',
  list: (v) => Array.isArray(v),
  object: (v) => isRecord(v),
  nested: () => true,
};

/** Whether a nested collection's value has its nesting's shape: a list (a set's too) or a map. */
function hasNestingShape(a: NestedAttribute, v: unknown): boolean {
  return a.nesting === 'map' ? isRecord(v) : Array.isArray(v);
}

/**
 * Checks a configuration against a kind's declaration and its cross-attribute rules.
 * Every problem is reported, each with its address and attribute path; nothing is sent.
 */
export function validateConfig(kind: AnyKind, config: State, address: string): Diagnostic[] {
  const problems = checkAttributes(kind.attributes, config, [], describeFound);
  if (problems.length === 0 && kind.check) problems.push(...kind.check(normalize(kind.attributes, config)));
  return withAddress(address, problems);
}

/** Checks arguments against attribute declarations alone (the provider block has no kind). */
export function validateAttributes(attributes: Attributes, config: State, address: string): Diagnostic[] {
  return withAddress(address, checkAttributes(attributes, config, [], describeFound));
}

/** How a problem names the value it found. */
type Describe = (v: unknown) => string;

/** A sensitive value is never quoted back, not even when it is wrong. */
const describeSensitive: Describe = () => 'a sensitive value';

function checkAttributes(attributes: Attributes, input: State, at: AttributePath, describe: Describe): Diagnostic[] {
  const out: Diagnostic[] = [];
  // By index, as in normalize (values.ts): every declared object passes here.
  const keys = Object.keys(input);
  const settable = Object.keys(attributes).filter((k) => attributes[k].mode !== 'computed');
  /** Required arguments that a misspelled key stands for: the key's problem says so, once. */
  const meant = new Set<string>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!hasOwn(attributes, key) && input[key] !== undefined) {
      const likely = closestName(key, settable);
      if (likely !== undefined && input[likely] === undefined) meant.add(likely);
      out.push(
        invalidValue({
          code: 'unknown_attribute',
          path: [...at, key],
          expected: `one of ${settable.join(', ')}`,
          // Never its value: a misspelled argument is often a secret (`clientSecret`, `secret`).
          found: `an argument named "${key}"`,
          message: `"${key}" is not an argument of this ${at.length === 0 ? 'resource' : 'object'}.${likely ? ` Did you mean "${likely}"?` : ''}`,
        }),
      );
    }
  }
  const list = attributeList(attributes);
  for (let i = 0; i < list.length; i++) {
    const { name, attribute: a } = list[i];
    const v = input[name];
    if (v === undefined || v === null) {
      if (a.mode === 'required' && !meant.has(name)) {
        out.push(invalidValue({ code: 'required', path: [...at, name], expected: typeWords(a), found: 'nothing', message: `"${name}" is required.` }));
      }
      continue;
    }
    if (a.mode === 'computed') {
      out.push(
        invalidValue({
          code: 'computed_attribute',
          path: [...at, name],
          expected: 'no value (the platform sets it)',
          found: describe(v),
          message: `"${name}" is set by the platform and cannot be configured.`,
        }),
      );
      continue;
    }
    out.push(...checkValue(a, v, at, name, a.sensitive ? describeSensitive : describe));
  }
  return out;
}

/** The problems of one value at `at`.`key`; its path is made only for a problem (most values have none). */
function checkValue(a: Attribute, v: unknown, at: AttributePath, key: string, describe: Describe): readonly Diagnostic[] {
  if (isUnknown(v)) return NO_ITEMS;
  if (a.type === 'nested' && typeof v === 'string' && parseJson(v) !== undefined) {
    // The form of an earlier version, where such values were strings of JSON.
    return [
      invalidValue({
        code: 'invalid_type',
        path: [...at, key],
        expected: typeWords(a),
        found: 'a string holding JSON',
        message: 'Write the objects themselves, not a string of their JSON: remove `jsonencode(...)` or `JSON.stringify(...)` around them.',
      }),
    ];
  }
  if (!hasType[a.type](v) || (a.type === 'nested' && !hasNestingShape(a, v))) {
    return [invalidValue({ code: 'invalid_type', path: [...at, key], expected: typeWords(a), found: describe(v), message: 'Wrong type.' })];
  }
  switch (a.type) {
    case 'string':
    case 'number':
      return a.check ? zodProblems(a.check, v, at, key, typeWords(a), describe) : NO_ITEMS;
    case 'json': {
      const parsed = parseJson(v);
      if (parsed === undefined)
        return [invalidValue({ code: 'invalid_json', path: [...at, key], expected: typeWords(a), found: describe(v), message: 'Not valid JSON.' })];
      if (a.holdsObject && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))) {
        return [
          invalidValue({
            code: 'invalid_json',
            path: [...at, key],
            expected: typeWords(a),
            found: describe(v),
            message: 'The platform takes a JSON object here.',
          }),
        ];
      }
      return NO_ITEMS;
    }
    case 'list': {
      const path = [...at, key];
      const items = v as unknown[];
      const out: Diagnostic[] = [];
      const size = `${a.minItems ?? 0} to ${a.maxItems ?? 'any number of'} items`;
      if ((a.minItems !== undefined && items.length < a.minItems) || (a.maxItems !== undefined && items.length > a.maxItems)) {
        out.push(invalidValue({ code: 'list_size', path, expected: size, found: `${items.length} items`, message: 'Wrong number of items.' }));
      }
      items.forEach((item, i) => {
        if (isUnknown(item)) return;
        out.push(...zodProblems(a.element, item, path, i, a.expects ?? 'a string', describe));
        if (a.unique && items.indexOf(item) !== i) {
          out.push(invalidValue({ code: 'duplicate', path: [...path, i], expected: 'no repeated items', found: describe(item), message: 'Repeated item.' }));
        }
      });
      return out;
    }
    case 'object':
      return checkAttributes(a.attributes, v as State, [...at, key], describe);
    case 'nested':
      return checkNested(a, v, [...at, key], describe);
    default:
      return NO_ITEMS;
  }
}

/** The problems of a list, set or map of objects: its size, then each object at its index or key. */
function checkNested(a: NestedAttribute, v: unknown, path: AttributePath, describe: Describe): Diagnostic[] {
  const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v as State);
  const out: Diagnostic[] = [];
  if ((a.minItems !== undefined && entries.length < a.minItems) || (a.maxItems !== undefined && entries.length > a.maxItems)) {
    const size = `${a.minItems ?? 0} to ${a.maxItems ?? 'any number of'} items`;
    out.push(invalidValue({ code: 'list_size', path, expected: size, found: `${entries.length} items`, message: 'Wrong number of items.' }));
  }
  for (const [key, item] of entries) {
    if (isUnknown(item)) continue;
    if (!isRecord(item)) {
      const expected = `an object with ${Object.keys(a.attributes).join(', ')}`;
      out.push(invalidValue({ code: 'invalid_type', path: [...path, key], expected, found: describe(item), message: 'Wrong type.' }));
      continue;
    }
    out.push(...checkAttributes(a.attributes, item, [...path, key], describe));
  }
  return out;
}

function zodProblems(schema: z.ZodType, v: unknown, at: AttributePath, key: string | number, expected: string, describe: Describe): readonly Diagnostic[] {
  // A rule's own message (given where the schema is declared) takes precedence over this one.
  const r = schema.safeParse(v, { error: problemWords });
  if (r.success) return NO_ITEMS;
  return r.error.issues.map((issue) =>
    invalidValue({
      code: issue.code === 'invalid_format' || issue.code === 'invalid_value' ? 'invalid_value' : issue.code,
      path: [...at, key, ...(issue.path as (string | number)[])],
      expected,
      found: describe(v),
      message: /[.?]$/.test(issue.message) ? issue.message : `${issue.message}.`,
    }),
  );
}

/**
 * A value's problem in tenantform's words, where the schema gives none: "Expected ...; found ..."
 * follows each, so the validation library's generic text (which says the same again) is not used.
 */
function problemWords(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_value': {
      const options = issue.values.filter((o): o is string => typeof o === 'string');
      const likely = typeof issue.input === 'string' ? closestName(issue.input, options) : undefined;
      return `Not one of the accepted values.${likely ? ` Did you mean "${likely}"?` : ''}`;
    }
    case 'invalid_format':
      return 'Not in the expected format.';
    case 'too_small':
      return issue.origin === 'string' ? 'Too short.' : issue.origin === 'array' ? 'Too few items.' : 'Too small.';
    case 'too_big':
      return issue.origin === 'string' ? 'Too long.' : issue.origin === 'array' ? 'Too many items.' : 'Too large.';
    case 'invalid_type':
      return 'Wrong type.';
    default:
      return 'Not an accepted value.';
  }
}

/** The problem of a rule that spans attributes, "exactly one of". */
export function exactlyOneOf(config: State, names: readonly string[]): Diagnostic[] {
  const set = names.filter((n) => config[n] !== null && config[n] !== undefined);
  if (set.length === 1) return [];
  return [
    invalidValue({
      code: 'exactly_one_of',
      path: [set[1] ?? names[0]],
      expected: `exactly one of ${names.join(', ')}`,
      found: set.length === 0 ? 'none of them' : `${set.join(' and ')}`,
      message: `Set exactly one of ${names.join(' and ')}.`,
    }),
  ];
}
