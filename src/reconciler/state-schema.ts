import { z } from 'zod';
import { isRecord } from '../plain-json';
import { documentPath, documentProblem, quoted } from './file-schema';

/**
 * The state file as tenantform reads it (Terraform's format version 4, plus the keys
 * tenantform keeps beside it). A hand-edited or damaged file is refused with the path of the
 * first problem, before anything uses it.
 */
const ADDRESS = /^(data\.)?[A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_-]*(\[(\d+|"(?:[^"\\]|\\.)*")\])?$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

// Checked as an object, not key by key: the keys of parsed JSON are strings, and a per-key
// check would copy every object's attributes.
const attributes = z.custom<Record<string, unknown>>(isRecord, { error: (i) => `expected an object of attributes, found ${quoted(i.input)}` });
const text = (what: string) => z.string({ error: (i) => `expected ${what}, found ${quoted(i.input)}` });
const address = text('a resource address').regex(ADDRESS, { error: (i) => `expected a resource address such as tenantform_infra_component.primary, found ${quoted(i.input)}` });

const instance = z.looseObject({
  // count index or for_each key
  index_key: z.union([z.number().int().min(0), z.string()], { error: (i) => `expected a count index or a for_each key, found ${quoted(i.input)}` }).optional(),
  schema_version: z.number({ error: (i) => `expected a schema version number, found ${quoted(i.input)}` }).int().min(0),
  attributes,
  sensitive_attributes: z.array(z.unknown()).optional(),
  dependencies: z.array(address).optional(),
});

const resource = z
  .looseObject({
    mode: z.enum(['managed', 'data'], { error: (i) => `expected "managed" or "data", found ${quoted(i.input)}` }),
    type: text('a resource type').regex(NAME),
    name: text('a resource name').regex(NAME),
    provider: z.string().optional(),
    instances: z.array(instance, { error: (i) => `expected a list of instances, found ${quoted(i.input)}` }).min(1, { error: 'expected at least one instance' }),
  })
  .superRefine((r, ctx) => {
    if (r.mode !== 'managed') return;
    // Every managed object is recorded with the platform's identity; without it nothing can be read back.
    r.instances.forEach((instance, n) => {
      const id = instance.attributes.id;
      if (typeof id !== 'string' || id.trim() === '' || id !== id.trim() || /[\u0000-\u001f]/.test(id)) {
        ctx.addIssue({ code: 'custom', path: ['instances', n, 'attributes', 'id'], message: `expected the object's id (a non-empty string), found ${quoted(id)}` });
      }
    });
  });

/** The document around its resources, which are checked one at a time (see stateProblem). */
const envelope = z.looseObject(
  {
    version: z.literal(4, { error: (i) => `state format version ${quoted(i.input)}; tenantform reads version 4` }),
    terraform_version: z.string().optional(),
    serial: z.number({ error: (i) => `expected the serial number, found ${quoted(i.input)}` }).int().min(0),
    lineage: text('the lineage (a string)').min(1),
    outputs: z.record(z.string(), z.unknown()).nullish(),
    resources: z.array(z.unknown(), { error: (i) => `expected a list of resources, found ${quoted(i.input)}` }),
    check_results: z.unknown().optional(),
    tenantform_pending: z
      .array(z.looseObject({ address, attributes, started: z.string().optional() }), { error: (i) => `expected a list of interrupted creates, found ${quoted(i.input)}` })
      .optional(),
    tenantform_protected: z.array(address, { error: (i) => `expected a list of protected addresses, found ${quoted(i.input)}` }).optional(),
  },
  { error: (i) => `expected a JSON object, found ${quoted(i.input)}` },
);

/**
 * The first problem of a parsed state document, with its path; undefined when it is valid.
 * Resources are checked one by one, so that the checked copy of a large state never exists
 * whole beside the state itself.
 */
export function stateProblem(doc: unknown): string | undefined {
  const outer = documentProblem(envelope, doc);
  if (outer !== undefined) return outer;
  const resources = (doc as { resources: unknown[] }).resources;
  const seen = new Set<string>();
  for (let i = 0; i < resources.length; i++) {
    const problem = documentProblem(resource, resources[i], ['resources', i]);
    if (problem !== undefined) return problem;
    const r = resources[i] as { mode: string; type: string; name: string };
    const a = `${r.mode === 'data' ? 'data.' : ''}${r.type}.${r.name}`;
    if (seen.has(a)) return `at ${documentPath(['resources', i])}: ${a} is recorded twice`;
    seen.add(a);
  }
  return undefined;
}
