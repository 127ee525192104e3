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
import { listableKinds, listAttributes, listConfig, listObjects, type FoundObject } from '../resources/list';
import { toDiagnostic } from '../resources/operations';
import type { KindRegistry } from '../resources/registry';
import { schemaAttributes, type SchemaAttribute } from '../resources/terraform-schema';
import { validateConfig } from '../resources/validate';
import { wireIdentity } from './identity';
import type * as tfplugin6 from './messages';
import { decodeState, encodeState, unknownsAsNull } from './values';

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
export function withListResources(
  kinds: () => KindRegistry,
  calls: Omit<tfplugin6.ProviderService, tfplugin6.ListCalls>,
  opts: ListOptions,
): tfplugin6.ProviderService {
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

/**
 * Objects read at once for `include_resource`, as `tenantform export` reads what it lists: the
 * events still go out in the listing's order.
 */
export const LIST_READ_AHEAD = 8;

/** A listed object whose import (for `include_resource`) may still be on its way. */
interface Pending {
  readonly found: FoundObject;
  readonly imported?: Promise<tfplugin6.ImportResourceState_Response>;
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
  const window: Pending[] = [];
  /** The event of the oldest object in the window, and whether it ends the stream (its import failed). */
  const next = async (): Promise<{ event: tfplugin6.ListResource_Event; last: boolean }> => {
    const { found, imported } = window.shift()!;
    if (!imported) return { event: { display_name: found.displayName, identity: wireIdentity(kind, identityFromListing(kind, found.identity)) }, last: false };
    const answer = await imported;
    const object = answer.imported_resources?.[0];
    if (!object) return { event: { display_name: found.displayName, diagnostic: answer.diagnostics ?? [] }, last: true };
    const identity = identityOf(kind, decodeState(kind.attributes, object.state));
    return { event: { display_name: found.displayName, resource_object: object.state, identity: identity ? wireIdentity(kind, identity) : null }, last: false };
  };
  /** Sends the window's events, oldest first, until `keep` objects are left in it; true when one ended the stream. */
  async function* flush(keep: number): AsyncGenerator<tfplugin6.ListResource_Event, boolean> {
    while (window.length > keep) {
      const { event, last } = await next();
      yield event;
      if (last) return true;
    }
    return false;
  }
  const readAhead = req.include_resource_object ? LIST_READ_AHEAD - 1 : 0;
  let listed = 0;
  try {
    for await (const found of listObjects(client, kind, config)) {
      if (listed >= limit) break;
      listed++;
      // The object as an import records it: what `terraform query` shows is what an import block brings in.
      window.push({ found, imported: req.include_resource_object ? calls.ImportResourceState({ type_name: kind.type, id: found.importId }) : undefined });
      if (yield* flush(readAhead)) return;
    }
    yield* flush(0);
  } catch (err) {
    // The objects found before the failure are sent; the error ends the listing.
    if (yield* flush(0)) return;
    yield { diagnostic: [opts.wireDiagnostic(toDiagnostic(err, `list.${kind.type}`, `listing ${kind.type}`))] };
  } finally {
    // No request outlives the stream: reads still on their way when it ends are waited for.
    await Promise.allSettled(window.splice(0).map((p) => p.imported));
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
