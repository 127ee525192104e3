import { z } from 'zod';
import { KINDS } from '../resources/registry';
import { parseInstanceAddress } from '../state/addresses';
import { documentProblem, quoted } from '../state/file-schema';

/**
 * A saved plan as `apply PLANFILE` reads it. A hand-edited or damaged file is refused with the
 * path of the first problem: an action that is not one, a change whose values do not fit its
 * action, a type this version does not know.
 */
const ACTIONS = ['create', 'update', 'replace', 'delete', 'no-op'] as const;

const object = z.record(z.string(), z.unknown());
const objectOrNull = z.union([object, z.null()], { error: (i) => `expected an object or null, found ${quoted(i.input)}` });
const strings = z.array(z.string());

const change = z
  .looseObject({
    address: z.string({ error: (i) => `expected a resource address, found ${quoted(i.input)}` }),
    mode: z.enum(['managed', 'data'], { error: (i) => `expected "managed" or "data", found ${quoted(i.input)}` }),
    type: z.string({ error: (i) => `expected a resource type, found ${quoted(i.input)}` }),
    name: z.string({ error: (i) => `expected a resource name, found ${quoted(i.input)}` }),
    action: z.enum(ACTIONS, { error: (i) => `expected one of ${ACTIONS.join(', ')}, found ${quoted(i.input)}` }),
    before: objectOrNull,
    after: objectOrNull,
    requiresReplace: z.array(z.array(z.union([z.string(), z.number()]))),
    changed: strings,
    sensitive: strings,
    identifying: strings,
    seen: z.looseObject({ version: z.number().nullish(), fingerprint: z.string().nullish() }).optional(),
    previousAddress: z.string().optional(),
    forget: z.literal(true).optional(),
    importing: z.strictObject({ id: z.string().min(1) }).optional(),
  })
  .superRefine((c, ctx) => {
    const at = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (!KINDS.ofMode(c.mode, c.type))
      at(['type'], `${quoted(c.type)} is not a ${c.mode === 'data' ? 'data source' : 'resource'} type this version of tenantform knows`);
    // An instance of a repeated block (`type.name[0]`, `type.name["key"]`) belongs to that block.
    const parts = parseInstanceAddress(c.address);
    if (!parts || parts.mode !== c.mode || parts.type !== c.type || parts.name !== c.name)
      at(['address'], `${quoted(c.address)} does not match its mode, type and name`);
    const needsBefore = c.action !== 'create';
    const needsAfter = c.action !== 'delete';
    const an = c.action === 'update' ? 'an' : 'a';
    if (needsBefore !== (c.before !== null)) at(['before'], needsBefore ? `${an} ${c.action} needs the object as it was` : 'a create has no object before');
    if (needsAfter !== (c.after !== null)) at(['after'], needsAfter ? `${an} ${c.action} needs the object as it will be` : 'a delete has no object after');
  });

const drift = z.looseObject({
  address: z.string(),
  mode: z.enum(['managed', 'data']),
  type: z.string(),
  name: z.string(),
  action: z.enum(['update', 'delete'], { error: (i) => `expected "update" or "delete", found ${quoted(i.input)}` }),
  before: objectOrNull,
  after: objectOrNull,
  changes: z.array(z.unknown()),
});

export const PlanFileSchema = z.looseObject(
  {
    format: z.literal('tenantform-plan', { error: (i) => `expected "tenantform-plan", found ${quoted(i.input)}` }),
    version: z.literal(1, { error: (i) => `plan file version ${quoted(i.input)}; this tenantform reads version 1` }),
    plan: z.looseObject(
      {
        stack: z.string(),
        configHash: z.string({ error: (i) => `expected the configuration hash, found ${quoted(i.input)}` }),
        priorState: z.union([z.looseObject({ lineage: z.string(), serial: z.number().int().min(0) }), z.null()], {
          error: (i) => `expected the prior state's lineage and serial, or null, found ${quoted(i.input)}`,
        }),
        changes: z.array(change, { error: (i) => `expected a list of changes, found ${quoted(i.input)}` }),
        drift: z.array(drift, { error: (i) => `expected a list of drifted objects, found ${quoted(i.input)}` }),
        diagnostics: z.array(z.looseObject({ severity: z.enum(['error', 'warning']), summary: z.string(), detail: z.string() })),
        refreshOnly: z.boolean({ error: (i) => `expected true or false, found ${quoted(i.input)}` }),
        createdAt: z.string().optional(),
      },
      { error: (i) => `expected the plan (an object), found ${quoted(i.input)}` },
    ),
    data: z.record(z.string(), object, { error: (i) => `expected the data source values (an object), found ${quoted(i.input)}` }),
  },
  { error: (i) => `expected a JSON object, found ${quoted(i.input)}` },
);

/** The first problem of a parsed plan file, with its path; undefined when it is valid. */
export function planFileProblem(doc: unknown): string | undefined {
  return documentProblem(PlanFileSchema, doc);
}
