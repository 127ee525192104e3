import { attr } from './attributes';
import { snakeAttributes } from './naming';
import { terraformSchema } from './terraform-schema';
import { defineResource } from './declaration';
import { validateAttributes } from './validate';
import { fingerprint, normalize, Unknown, valueEqual } from './values';

/** A declaration with one collection of each nesting, as a kind would write them. */
const member = {
  name: attr.string({ mode: 'required', description: 'The name.' }),
  weight: attr.number({ mode: 'optional', default: 1, description: 'A weight.' }),
  limits: attr.object({ soft: attr.number({ mode: 'optional', description: 'Soft.' }) }, { mode: 'optional', description: 'Limits.' }),
};
const attributes = {
  ordered: attr.listNested(member, { mode: 'optional', maxItems: 2, description: 'A list.' }),
  unordered: attr.setNested(member, { mode: 'optional', description: 'A set.' }),
  keyed: attr.mapNested(member, { mode: 'optional', description: 'A map.' }),
};

describe('nested attributes: validation', () => {
  it('names the full path of each problem: index in a list or set, key in a map', () => {
    const problems = validateAttributes(
      attributes,
      {
        ordered: [{ name: 'a' }, { name: 'b', limits: { soft: 'high' } }, { name: 'c' }],
        unordered: [{ weight: 2 }],
        keyed: { 'Big Key': { name: 'k', colour: 'red' } },
      },
      'example.x',
    );
    const paths = problems.map((p) => p.path?.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['ordered', 'ordered.1.limits.soft', 'unordered.0.name', 'keyed.Big Key.colour']));
    expect(problems.every((p) => p.address === 'example.x')).toBe(true);
    expect(problems.find((p) => p.path?.join('.') === 'ordered')?.detail).toContain('0 to 2 items');
    expect(problems.find((p) => p.path?.join('.') === 'keyed.Big Key.colour')?.detail).toContain('not an argument of this object');
  });

  it('refuses a value of the wrong shape, and a string of JSON with what to write instead', () => {
    const problems = validateAttributes(attributes, { ordered: { name: 'a' }, keyed: [{ name: 'a' }], unordered: '[{"name":"a"}]' }, 'example.x');
    expect(problems.map((p) => p.path?.join('.')).sort()).toEqual(['keyed', 'ordered', 'unordered']);
    expect(problems.find((p) => p.path?.[0] === 'unordered')?.detail).toContain('remove `jsonencode(...)`');
  });

  it('passes values known only after apply, whole or per element', () => {
    expect(validateAttributes(attributes, { ordered: Unknown, unordered: [Unknown, { name: Unknown }] }, 'example.x')).toEqual([]);
  });
});

describe('nested attributes: values', () => {
  it('fills each element as one object is filled: defaults, and null for what is left out', () => {
    expect(normalize(attributes, { ordered: [{ name: 'a' }], keyed: { k: { name: 'k', weight: 3 } } })).toEqual({
      ordered: [{ name: 'a', weight: 1, limits: null }],
      unordered: null,
      keyed: { k: { name: 'k', weight: 3, limits: null } },
    });
  });

  it('holds a set element once, however many times it is given', () => {
    expect(normalize(attributes, { unordered: [{ name: 'a' }, { name: 'a', weight: 1 }, { name: 'b' }] }).unordered).toEqual([
      { name: 'a', weight: 1, limits: null },
      { name: 'b', weight: 1, limits: null },
    ]);
  });

  it('compares a list by position, a set without order, a map by key', () => {
    const a = { name: 'a', weight: 1, limits: null };
    const b = { name: 'b', weight: 1, limits: null };
    expect(valueEqual(attributes.ordered, [a, b], [b, a])).toBe(false);
    expect(valueEqual(attributes.unordered, [a, b], [b, a])).toBe(true);
    expect(valueEqual(attributes.unordered, [a, b], [a])).toBe(false);
    expect(valueEqual(attributes.keyed, { x: a, y: b }, { y: b, x: a })).toBe(true);
    expect(valueEqual(attributes.keyed, { x: a }, { y: a })).toBe(false);
    expect(fingerprint(attributes, { unordered: [a, b] })).toBe(fingerprint(attributes, { unordered: [b, a] }));
    expect(fingerprint(attributes, { ordered: [a, b] })).not.toBe(fingerprint(attributes, { ordered: [b, a] }));
  });
});

describe('nested attributes: what derives from the declaration', () => {
  it('the provider schema declares each as a nested type with its nesting mode', () => {
    const kind = defineResource({
      type: 'tenantform_example',
      description: 'An example.',
      schemaVersion: 0,
      attributes,
      importId: { format: '`<name>`', parse: () => undefined },
      identity: () => 'x',
      example: { name: 'x', config: {} },
      read: async () => null,
      create: async () => ({ ordered: null, unordered: null, keyed: null }),
      update: async () => ({ ordered: null, unordered: null, keyed: null }),
      delete: async () => undefined,
    });
    const schema = terraformSchema(kind);
    expect(schema.attributes.map((a) => [a.name, a.nested?.nesting])).toEqual([
      ['ordered', 'LIST'],
      ['unordered', 'SET'],
      ['keyed', 'MAP'],
    ]);
    const weight = schema.attributes[0].nested?.attributes.find((a) => a.name === 'weight');
    // A default is filled in by the provider: optional and computed, as Terraform requires.
    expect(weight).toMatchObject({ optional: true, computed: true });
  });

  it('camelCase props become snake_case attributes inside elements, and a map keeps its keys as written', () => {
    const props = {
      ordered: [{ name: 'a', limits: { soft: 1 } }],
      keyed: { someKey: { name: 'k' } },
      notDeclared: { innerKey: 1 },
    };
    const nestedProps = { ordered: [{ name: 'a', weightLimit: 2 }] };
    expect(snakeAttributes(attributes, props)).toEqual({
      ordered: [{ name: 'a', limits: { soft: 1 } }],
      keyed: { someKey: { name: 'k' } },
      not_declared: { inner_key: 1 },
    });
    expect(snakeAttributes(attributes, nestedProps)).toEqual({ ordered: [{ name: 'a', weight_limit: 2 }] });
  });
});
