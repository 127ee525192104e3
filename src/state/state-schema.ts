import { z } from 'zod';
import { isRecord } from '../plain-json';
import { documentPath, documentProblem, quoted } from './file-schema';
import { blockAddress, INSTANCE_ADDRESS, MODULE_PATH } from './addresses';

/**
 * The state file as tenantform reads it (Terraform's format version 4, plus the keys
 * tenantform keeps beside it). A hand-edited or damaged file is refused with the path of the
 * first problem, before anything uses it.
 */
const ADDRESS = new RegExp(`^${INSTANCE_ADDRESS}$`);
const MODULE = new RegExp(`^${MODULE_PATH}$`);
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

// Checked as an object, not key by key: the keys of parsed JSON are strings, and a per-key
// check would copy every object's attributes.
const attributes = z.custom<Record<string, unknown>>(isRecord, { error: (i) => `expected an object of attributes, found ${quoted(i.input)}` });
const text = (what: string) => z.string({ error: (i) => `expected ${what}, found ${quoted(i.input)}` });
const address = text('a resource address').regex(ADDRESS, {
  error: (i) => `expected a resource address such as tenantform_infra_component.primary, found ${quoted(i.input)}`,
});

/** A problem inside one recorded resource: where (from the resource), and what. */
interface ResourceProblem {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
}

/**
 * The first problem of one recorded resource. Written out rather than as a schema: it runs for
 * every resource of every state read, mostly before the code is warm, and a schema's checks
 * and copies cost several times as much.
 */
function resourceProblem(r: unknown): ResourceProblem | undefined {
  if (!isRecord(r)) return { path: [], message: `expected a resource (an object), found ${quoted(r)}` };
  if (r.module !== undefined && (typeof r.module !== 'string' || !MODULE.test(r.module)))
    return { path: ['module'], message: `expected a module instance such as module.customer["acme"], found ${quoted(r.module)}` };
  if (r.mode !== 'managed' && r.mode !== 'data') return { path: ['mode'], message: `expected "managed" or "data", found ${quoted(r.mode)}` };
  for (const key of ['type', 'name'] as const) {
    const v = r[key];
    if (typeof v !== 'string' || !NAME.test(v)) return { path: [key], message: `expected a resource ${key} (letters, digits, _ and -), found ${quoted(v)}` };
  }
  if (r.provider !== undefined && typeof r.provider !== 'string')
    return { path: ['provider'], message: `expected a provider address, found ${quoted(r.provider)}` };
  const instances = r.instances;
  if (!Array.isArray(instances)) return { path: ['instances'], message: `expected a list of instances, found ${quoted(instances)}` };
  if (instances.length === 0) return { path: ['instances'], message: 'expected at least one instance' };
  for (let n = 0; n < instances.length; n++) {
    const problem = instanceProblem(instances[n]);
    if (problem) return { path: ['instances', n, ...problem.path], message: problem.message };
  }
  if (r.mode === 'managed') {
    // Every managed object is recorded with the platform's identity; without it nothing can be read back.
    for (let n = 0; n < instances.length; n++) {
      const id = (instances[n] as { attributes: Record<string, unknown> }).attributes.id;
      if (typeof id !== 'string' || id.trim() === '' || id !== id.trim() || /[\u0000-\u001f]/.test(id)) {
        return { path: ['instances', n, 'attributes', 'id'], message: `expected the object's id (a non-empty string), found ${quoted(id)}` };
      }
    }
  }
  return undefined;
}

function instanceProblem(i: unknown): ResourceProblem | undefined {
  if (!isRecord(i)) return { path: [], message: `expected an instance (an object), found ${quoted(i)}` };
  const key = i.index_key;
  if (key !== undefined && typeof key !== 'string' && !(typeof key === 'number' && Number.isInteger(key) && key >= 0)) {
    return { path: ['index_key'], message: `expected a count index or a for_each key, found ${quoted(key)}` };
  }
  const version = i.schema_version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
    return { path: ['schema_version'], message: `expected a schema version number, found ${quoted(version)}` };
  if (!isRecord(i.attributes)) return { path: ['attributes'], message: `expected an object of attributes, found ${quoted(i.attributes)}` };
  if (i.sensitive_attributes !== undefined && !Array.isArray(i.sensitive_attributes)) {
    return { path: ['sensitive_attributes'], message: `expected a list of sensitive attribute paths, found ${quoted(i.sensitive_attributes)}` };
  }
  if (i.status !== undefined && i.status !== 'tainted') return { path: ['status'], message: `expected "tainted" or no status, found ${quoted(i.status)}` };
  const dependencies = i.dependencies;
  if (dependencies === undefined) return undefined;
  if (!Array.isArray(dependencies)) return { path: ['dependencies'], message: `expected a list of resource addresses, found ${quoted(dependencies)}` };
  for (let n = 0; n < dependencies.length; n++) {
    const d: unknown = dependencies[n];
    if (typeof d !== 'string' || !ADDRESS.test(d))
      return { path: ['dependencies', n], message: `expected a resource address such as tenantform_infra_component.primary, found ${quoted(d)}` };
  }
  return undefined;
}

/**
 * The first problem of one change of the apply journal (a `StateChange`), with its path; undefined
 * when it is valid. The resources and instances it carries are checked as a state's are.
 */
export function journalChangeProblem(c: unknown): string | undefined {
  if (!isRecord(c)) return `expected a change (an object), found ${quoted(c)}`;
  const addressProblem = (key: string) =>
    typeof c[key] === 'string' && ADDRESS.test(c[key]) ? undefined : `at ${key}: expected a resource address, found ${quoted(c[key])}`;
  const within = (where: string, problem: ResourceProblem | undefined) => problem && `at ${documentPath([where, ...problem.path])}: ${problem.message}`;
  switch (c.op) {
    case 'put':
      return within('resource', resourceProblem(c.resource));
    case 'put-instance': {
      const block = c.resource;
      if (
        !isRecord(block) ||
        (block.mode !== 'managed' && block.mode !== 'data') ||
        typeof block.type !== 'string' ||
        !NAME.test(block.type) ||
        typeof block.name !== 'string' ||
        !NAME.test(block.name)
      ) {
        return `at resource: expected a resource block (mode, type, name), found ${quoted(block)}`;
      }
      return within('instance', instanceProblem(c.instance));
    }
    case 'remove':
    case 'unpending':
      return addressProblem('address');
    case 'pending':
      if (!isRecord(c.entry) || typeof c.entry.address !== 'string' || !ADDRESS.test(c.entry.address) || !isRecord(c.entry.attributes)) {
        return `at entry: expected an interrupted create (address and attributes), found ${quoted(c.entry)}`;
      }
      return undefined;
    case 'protect':
      return addressProblem('address') ?? (typeof c.protect === 'boolean' ? undefined : `at protect: expected true or false, found ${quoted(c.protect)}`);
    default:
      return `at op: expected one of put, put-instance, remove, pending, unpending, protect, found ${quoted(c.op)}`;
  }
}

/** The document around its resources, which are checked one at a time (see stateProblem). */
const envelope = z.looseObject(
  {
    version: z.literal(4, { error: (i) => `state format version ${quoted(i.input)}; tenantform reads version 4` }),
    terraform_version: z.string().optional(),
    serial: z
      .number({ error: (i) => `expected the serial number, found ${quoted(i.input)}` })
      .int()
      .min(0),
    lineage: text('the lineage (a string)').min(1),
    outputs: z.record(z.string(), z.unknown()).nullish(),
    resources: z.array(z.unknown(), { error: (i) => `expected a list of resources, found ${quoted(i.input)}` }),
    check_results: z.unknown().optional(),
    tenantform_pending: z
      .array(z.looseObject({ address, attributes, started: z.string().optional() }), {
        error: (i) => `expected a list of interrupted creates, found ${quoted(i.input)}`,
      })
      .optional(),
    tenantform_protected: z.array(address, { error: (i) => `expected a list of protected addresses, found ${quoted(i.input)}` }).optional(),
  },
  { error: (i) => `expected a JSON object, found ${quoted(i.input)}` },
);

/**
 * The first problem of a parsed state document, with its path; undefined when it is valid.
 * Resources are checked one by one, where they are, without a copy.
 */
export function stateProblem(doc: unknown): string | undefined {
  const outer = documentProblem(envelope, doc);
  if (outer !== undefined) return outer;
  const resources = (doc as { resources: unknown[] }).resources;
  const seen = new Set<string>();
  for (let i = 0; i < resources.length; i++) {
    const problem = resourceProblem(resources[i]);
    if (problem !== undefined) return `at ${documentPath(['resources', i, ...problem.path])}: ${problem.message}`;
    const a = blockAddress(resources[i] as Parameters<typeof blockAddress>[0]);
    if (seen.has(a)) return `at ${documentPath(['resources', i])}: ${a} is recorded twice`;
    seen.add(a);
  }
  return undefined;
}
