/**
 * Resource identity on the wire (Terraform 1.12, plugin protocol 6.9): the identity schemas,
 * their upgrade, the identity beside every object the provider answers, and import by identity.
 * Terraform 1.11 never asks for any of it and ignores the fields it does not know, so the
 * answers it gets are the same as before.
 */
import { attr, type Attributes } from '../resources/attributes';
import type { ResourceKind } from '../resources/declaration';
import { resourceErrors } from '../resources/errors';
import { IDENTITY_VERSION, identityAttributes, identityOf, importIdOf, type Identity } from '../resources/identity';
import type { KindRegistry } from '../resources/registry';
import { Unknown } from '../resources/values';
import type * as tfplugin6 from './messages';
import { decodeRaw, decodeState, encodeState } from './values';

/** The calls of resource identity. */
export type IdentityCalls = 'GetResourceIdentitySchemas' | 'UpgradeResourceIdentity';

const attributesByKind = new WeakMap<ResourceKind, Attributes>();

/** The identity attributes as attributes of an object, for the value codecs. */
export function identityObjectAttributes(kind: ResourceKind): Attributes {
  let attributes = attributesByKind.get(kind);
  if (!attributes) {
    attributes = Object.fromEntries(identityAttributes(kind).map((a) => [a.name, attr.string({ mode: 'computed', description: a.description })]));
    attributesByKind.set(kind, attributes);
  }
  return attributes;
}

/** An identity as Terraform receives it; every part unknown when `identity` is 'unknown' (a create being planned). */
export function wireIdentity(kind: ResourceKind, identity: Identity | 'unknown'): tfplugin6.ResourceIdentityData {
  const value = identity === 'unknown' ? Object.fromEntries(identityAttributes(kind).map((a) => [a.name, Unknown])) : identity;
  return { identity_data: encodeState(identityObjectAttributes(kind), value) };
}

function identityData(kind: ResourceKind, state: tfplugin6.DynamicValue | null | undefined): tfplugin6.ResourceIdentityData | null {
  const identity = identityOf(kind, decodeState(kind.attributes, state));
  return identity ? wireIdentity(kind, identity) : null;
}

function error(summary: string, detail: string): tfplugin6.Diagnostic {
  return { severity: 'ERROR', summary, detail };
}

export function identitySchemas(kinds: KindRegistry): tfplugin6.GetResourceIdentitySchemas_Response {
  const schemas: Record<string, tfplugin6.ResourceIdentitySchema> = {};
  for (const kind of kinds.resources) {
    schemas[kind.type] = {
      version: IDENTITY_VERSION,
      identity_attributes: identityAttributes(kind).map((a) => ({
        name: a.name,
        type: Buffer.from(JSON.stringify('string')),
        required_for_import: true,
        optional_for_import: false,
        description: a.description,
      })),
    };
  }
  return { identity_schemas: schemas, diagnostics: [] };
}

export function upgradeIdentity(kinds: KindRegistry, req: tfplugin6.UpgradeResourceIdentity_Request): tfplugin6.UpgradeResourceIdentity_Response {
  const kind = kinds.resource(req.type_name ?? '');
  if (!kind) return { diagnostics: [error('Unknown resource type', `tenantform has no resource type "${req.type_name ?? ''}".`)] };
  const version = req.version ?? 0;
  if (version > IDENTITY_VERSION) {
    return {
      diagnostics: [
        error(
          'Identity written by a newer tenantform',
          `The identity of this ${kind.type} has version ${version}, but this provider knows version ${IDENTITY_VERSION}. Use the tenantform version that wrote it (or newer).`,
        ),
      ],
    };
  }
  const raw = decodeRaw({ json: req.raw_identity?.json ?? null });
  const stored = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const identity = Object.fromEntries(identityAttributes(kind).map((a) => [a.name, typeof stored[a.name] === 'string' ? stored[a.name] : null]));
  return { upgraded_identity: { identity_data: encodeState(identityObjectAttributes(kind), identity) }, diagnostics: [] };
}

/**
 * The provider's calls with identity added: the identity of the object each answer carries, and
 * import by identity turned into import by the id the identity names.
 */
export function withIdentity(
  kinds: () => KindRegistry,
  calls: Omit<tfplugin6.ProviderService, IdentityCalls | tfplugin6.ListCalls>,
): Omit<tfplugin6.ProviderService, tfplugin6.ListCalls> {
  const kindOf = (type: string | undefined) => kinds().resource(type ?? '');
  return {
    ...calls,
    GetResourceIdentitySchemas: async () => identitySchemas(kinds()),
    UpgradeResourceIdentity: async (req) => upgradeIdentity(kinds(), req),
    ReadResource: async (req) => {
      const answer = await calls.ReadResource(req);
      const kind = kindOf(req.type_name);
      return kind ? { ...answer, new_identity: identityData(kind, answer.new_state) } : answer;
    },
    PlanResourceChange: async (req) => {
      const answer = await calls.PlanResourceChange(req);
      const kind = kindOf(req.type_name);
      if (!kind || !answer.planned_state) return answer;
      const planned = identityData(kind, answer.planned_state);
      const creating = decodeRaw(answer.planned_state) !== null && !planned;
      return { ...answer, planned_identity: creating ? wireIdentity(kind, 'unknown') : planned };
    },
    ApplyResourceChange: async (req) => {
      const answer = await calls.ApplyResourceChange(req);
      const kind = kindOf(req.type_name);
      return kind ? { ...answer, new_identity: identityData(kind, answer.new_state) } : answer;
    },
    MoveResourceState: async (req) => {
      const answer = await calls.MoveResourceState(req);
      const kind = kindOf(req.target_type_name);
      if (!kind || !answer.target_state) return answer;
      return { ...answer, target_identity: identityData(kind, answer.target_state) ?? movedIdentity(kinds(), kind, req) };
    },
    ImportResourceState: async (req) => {
      const kind = kindOf(req.type_name);
      const byIdentity = kind && !req.id && req.identity?.identity_data ? decodeState(identityObjectAttributes(kind), req.identity.identity_data) : null;
      let answer: tfplugin6.ImportResourceState_Response;
      if (kind && byIdentity) {
        const named = importIdOf(kind, byIdentity);
        if ('problem' in named) return { diagnostics: [error('Incomplete identity', named.problem)] };
        answer = await calls.ImportResourceState({ ...req, id: named.id });
        if ((answer.imported_resources ?? []).length === 0)
          answer = { ...answer, diagnostics: (answer.diagnostics ?? []).map((d) => gone(kind, byIdentity, d)) };
      } else {
        answer = await calls.ImportResourceState(req);
      }
      if (!kind) return answer;
      return { ...answer, imported_resources: (answer.imported_resources ?? []).map((r) => ({ ...r, identity: identityData(kind, r.state) })) };
    },
  };
}

/**
 * The identity the source recorded, when the moved state names none (a state without its ids):
 * the same resource type on both ends, so the identity schema is the same too.
 */
function movedIdentity(kinds: KindRegistry, kind: ResourceKind, req: tfplugin6.MoveResourceState_Request): tfplugin6.ResourceIdentityData | null {
  if (!req.source_identity?.json || req.source_identity.json.length === 0) return null;
  const upgraded = upgradeIdentity(kinds, { type_name: kind.type, version: req.source_identity_schema_version, raw_identity: req.source_identity });
  return upgraded.upgraded_identity ?? null;
}

/** An import by identity that found nothing says which identity, in the words of the identity. */
function gone(kind: ResourceKind, identity: Record<string, unknown>, d: tfplugin6.Diagnostic): tfplugin6.Diagnostic {
  if (d.summary !== NOT_FOUND_SUMMARY) return d;
  const words = identityAttributes(kind)
    .map((a) => `${a.name} = "${String(identity[a.name])}"`)
    .join(', ');
  return {
    ...d,
    detail: `No ${kind.type} with the identity { ${words} } exists on the platform: it was deleted, or the identity is mistyped. Remove the import block, or correct its identity.`,
  };
}

/** The summary of an import that finds nothing. */
const NOT_FOUND_SUMMARY = resourceErrors.notFoundForImport('', '').summary;
