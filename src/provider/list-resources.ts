/**
 * List resources and generated configuration (Terraform 1.14, plugin protocol 6.10): the list
 * resource schemas, the validation of a `list` block's `config`, the listing streamed object by
 * object, and the configuration `terraform query -generate-config-out` writes for an object.
 * Every kind whose objects can be listed (the listing `tenantform export` makes) is served.
 */
import type { PlatformClient } from '../api';
import type { Diagnostic } from '../diagnostics';
import { attributeList, type Attributes } from '../resources/attributes';
import type { ResourceKind, State } from '../resources/declaration';
import { identityOf } from '../resources/identity';
import { listableKinds, listAttributes, listConfig, listObjects } from '../resources/list';
import { toDiagnostic } from '../resources/operations';
import type { KindRegistry } from '../resources/registry';
import { schemaAttributes, type SchemaAttribute } from '../resources/terraform-schema';
import { validateConfig } from '../resources/validate';
import { wireIdentity } from './identity';
import type * as tfplugin6 from './messages';
import { decodeState, encodeState, unknownsAsNull } from './values';

/** The calls of list resources and generated configuration. */
export type ListCalls = 'ListResource' | 'ValidateListResourceConfig' | 'GenerateResourceConfig';

export interface ListOptions {
  /** The provider's schema on the wire, as its other schemas are sent. */
  readonly wireSchema: (version: number, description: string, attributes: SchemaAttribute[]) => tfplugin6.Schema;
  readonly wireDiagnostic: (d: Diagnostic) => tfplugin6.Diagnostic;
  /** The configured client; undefined before ConfigureProvider. */
  readonly client: () => PlatformClient | undefined;
}

function error(summary: string, detail: string): tfplugin6.Diagnostic {
  return { severity: 'ERROR', summary, detail };
}

/** The provider's calls with list resources added, and advertised in its metadata and schema. */
export function withListResources(kinds: () => KindRegistry, calls: Omit<tfplugin6.ProviderService, ListCalls>, opts: ListOptions): tfplugin6.ProviderService {
  const listable = () => listableKinds(kinds().resources);
  const listKind = (type: string | undefined) => listable().find((k) => k.type === type);
  let schemas: Record<string, tfplugin6.Schema> | undefined;
  const listSchemas = () =>
    (schemas ??= Object.fromEntries(
      listable().map((k) => [
        k.type,
        opts.wireSchema(0, `Lists the live ${k.type} objects of a tenant, or of its subtree.`, schemaAttributes(listAttributes(k))),
      ]),
    ));
  const unknownList = (type: string | undefined) =>
    error(
      `Unknown list resource "${type ?? ''}"`,
      `This tenantform provider lists ${listable()
        .map((k) => k.type)
        .join(', ')}.`,
    );
  return {
    ...calls,
    GetMetadata: async (req) => {
      const answer = await calls.GetMetadata(req);
      return {
        ...answer,
        server_capabilities: answer.server_capabilities && { ...answer.server_capabilities, generate_resource_config: true },
        list_resources: listable().map((k) => ({ type_name: k.type })),
      };
    },
    GetProviderSchema: async (req) => {
      const answer = await calls.GetProviderSchema(req);
      return {
        ...answer,
        server_capabilities: answer.server_capabilities && { ...answer.server_capabilities, generate_resource_config: true },
        list_resource_schemas: listSchemas(),
      };
    },
    ValidateListResourceConfig: async (req) => {
      const kind = listKind(req.type_name);
      if (!kind) return { diagnostics: [unknownList(req.type_name)] };
      const config = decodeState(listAttributes(kind), req.config);
      return { diagnostics: config ? validateConfig(listBlock(kind), config, `list.${kind.type}`).map(opts.wireDiagnostic) : [] };
    },
    ListResource: (req) => listEvents(req, listKind(req.type_name), calls, opts, unknownList),
    GenerateResourceConfig: async (req) => {
      const kind = kinds().resource(req.type_name ?? '');
      if (!kind) return { diagnostics: [error('Unknown resource type', `tenantform has no resource type "${req.type_name ?? ''}".`)] };
      const state = decodeState(kind.attributes, req.state);
      return { config: encodeState(kind.attributes, state && configOf(kind.attributes, state)), diagnostics: [] };
    },
  };
}

async function* listEvents(
  req: tfplugin6.ListResource_Request,
  kind: ResourceKind | undefined,
  calls: Pick<tfplugin6.ProviderService, 'ImportResourceState'>,
  opts: ListOptions,
  unknownList: (type: string | undefined) => tfplugin6.Diagnostic,
): AsyncGenerator<tfplugin6.ListResource_Event> {
  if (!kind) {
    yield { diagnostic: [unknownList(req.type_name)] };
    return;
  }
  const client = opts.client();
  if (!client) {
    yield { diagnostic: [error('The provider is not configured', 'Terraform listed objects before ConfigureProvider; this is a bug in the caller.')] };
    return;
  }
  const config = listConfig(unknownsAsNull(decodeState(listAttributes(kind), req.config) ?? {}));
  // Terraform sends the block's `limit` (100 unless set); it stops reading there too.
  const limit = req.limit && req.limit > 0 ? req.limit : Infinity;
  let sent = 0;
  try {
    for await (const found of listObjects(client, kind, config)) {
      if (sent >= limit) return;
      const event: tfplugin6.ListResource_Event = { display_name: found.displayName };
      if (req.include_resource_object) {
        // The object as an import records it: what `terraform query` shows is what an import block brings in.
        const imported = await calls.ImportResourceState({ type_name: kind.type, id: found.importId });
        const object = imported.imported_resources?.[0];
        if (!object) {
          yield { display_name: found.displayName, diagnostic: imported.diagnostics ?? [] };
          return;
        }
        event.resource_object = object.state;
        const identity = identityOf(kind, decodeState(kind.attributes, object.state));
        event.identity = identity ? wireIdentity(kind, identity) : null;
      } else {
        event.identity = wireIdentity(kind, identityFromListing(kind, found.identity));
      }
      sent++;
      yield event;
    }
  } catch (err) {
    // The objects found before the failure were sent; the error ends the listing.
    yield { diagnostic: [opts.wireDiagnostic(toDiagnostic(err, `list.${kind.type}`, `listing ${kind.type}`))] };
  }
}

/** The identity of a listed object from the attributes its listing gives (its import id's). */
function identityFromListing(kind: ResourceKind, listed: State): Record<string, string> {
  const parsed = kind.importId.parse(kind.identity(listed)) ?? listed;
  return identityOf(kind, parsed) ?? {};
}

/** The configuration that declares an object: its state without what only the platform sets. */
function configOf(attributes: Attributes, state: State): State {
  const out: State = {};
  for (const { name, attribute } of attributeList(attributes)) out[name] = attribute.mode === 'computed' ? null : state[name];
  return out;
}

const blocks = new WeakMap<ResourceKind, Parameters<typeof validateConfig>[0]>();

/** A kind's list configuration, described as a data source so that validateConfig checks it like any block. */
function listBlock(kind: ResourceKind): Parameters<typeof validateConfig>[0] {
  let block = blocks.get(kind);
  if (!block) {
    block = {
      kind: 'data',
      type: kind.type,
      description: '',
      attributes: listAttributes(kind),
      example: { name: 'all', config: {} },
      read: async () => {
        throw new Error('a list configuration is only validated');
      },
    };
    blocks.set(kind, block);
  }
  return block;
}
