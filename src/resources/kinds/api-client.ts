import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ApiClient, ApiClientCreate } from '../../api';
import { isNotFound } from '../../api/errors';
import { attr, oneOf } from '../attributes';
import { uuidImportId } from '../import-id';
import { defineResource } from '../declaration';
import type { StateOf } from '../models';

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

/** Why an imported client has no secret: the platform returns it only once. */
const SECRET_NOT_RECOVERABLE =
  "The platform returns an API client's secret only in the answer to its creation. An imported client therefore has no `client_secret` in the state (it is null); " +
  'to hand a secret to a tool, create a new client (replace this one) and delete the old one.';

const attributes = {
  id: attr.string({ mode: 'computed', key: true, description: 'The client id (`client_id`).' }),
  tenant_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    description: 'The tenant the client acts for.',
  }),
  type: attr.string({
    mode: 'optional',
    forceNew: true,
    default: 'api_client',
    check: oneOf(['api_client', 'managed_client']),
    expects: 'api_client or managed_client',
    description: 'The client type.',
  }),
  token_endpoint_auth_method: attr.string({
    mode: 'optional',
    forceNew: true,
    default: 'client_secret_basic',
    check: oneOf(AUTH_METHODS),
    expects: `one of ${AUTH_METHODS.join(', ')}`,
    description: 'How the client authenticates on the token endpoint.',
  }),
  enabled: attr.bool({ mode: 'optional', default: true, description: 'Whether the client may obtain access tokens.' }),
  data: attr.json({ mode: 'optional', holdsObject: true, description: "Free metadata (a JSON object), for example the tool's name." }),
  redirect_uris: attr.list(z.string().regex(/^[a-z][a-z0-9+.-]*:\/\/\S/), {
    mode: 'optional',
    unique: true,
    expects: 'absolute addresses',
    description: 'Allowed redirect addresses.',
  }),
  client_secret: attr.string({
    mode: 'computed',
    sensitive: true,
    keptInState: true,
    description: 'The secret, issued once at creation. Sensitive: never shown in plans or logs. Null after an import (the platform cannot return it again).',
  }),
  created_at: attr.string({ mode: 'computed', description: 'When the client was created.' }),
  origin_id: attr.string({
    mode: 'computed',
    description:
      "An identifier tenantform gives the client at creation (the platform's `origin_id`): a create whose answer was lost is found by it, deleted and made again, never left behind.",
  }),
};

export const apiClient = defineResource({
  type: 'tenantform_api_client',
  description:
    'An API client of a tenant, for a tool that calls the platform (monitoring, PSA, billing). The platform issues its secret once, at creation: tenantform keeps it in the state as a sensitive value and never prints it.',
  schemaVersion: 0,
  attributes,
  notes: [
    SECRET_NOT_RECOVERABLE,
    'Rotating a secret is replacing the client: the platform has no secret reset.',
    'The state holds the secret: keep the state in an encrypted, access-controlled backend, as for any Terraform state with secrets.',
    'A create whose answer was lost (a dropped connection, a killed run) cannot be adopted: the secret was only in that answer. tenantform finds the client it made by the `origin_id` chosen before the create was sent, deletes it and creates the client again; the plan after an interrupted run says so. No client is left behind.',
  ],
  importId: { ...uuidImportId('client'), format: 'the client id (a uuid); the secret cannot be imported' },
  identity: (s) => s.id,
  example: {
    name: 'monitoring',
    config: {
      tenant_id: '${tenantform_tenant.contoso.id}',
      data: '{"purpose":"monitoring"}',
    },
  },
  importWarning(imported, address) {
    if (imported.client_secret !== null) return undefined;
    // Terraform does not tell a provider the address it imports to: the command then names the type, and <name> is the user's.
    const at = address ?? 'tenantform_api_client.<name>';
    return {
      severity: 'warning',
      summary: 'The client secret cannot be imported',
      detail:
        `The platform returns an API client's secret only in the answer to its creation: ${at} is recorded with client_secret null, and no import can fill it. ` +
        `To get a secret, replace the client: \`tenantform destroy -target=${at}\` then \`tenantform apply\` (with Terraform, \`terraform apply -replace=${at}\`). ` +
        'Or declare a new client beside it, move the tool to the new secret, then remove the old client from the configuration. Tools using the old secret stop working once the old client is deleted.',
    };
  },
  // POST /clients makes a new client (and secret) each time it is sent.
  nonIdempotentCreate: true,
  prepareCreate: (planned) => (typeof planned.origin_id === 'string' ? planned : { ...planned, origin_id: `tenantform-${randomUUID()}` }),
  async read(ctx, state) {
    try {
      return fromClient(await ctx.client.getApiClient(state.id), state.client_secret);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  },
  async create(ctx, planned) {
    const body: ApiClientCreate = {
      tenant_id: planned.tenant_id,
      type: planned.type,
      token_endpoint_auth_method: planned.token_endpoint_auth_method,
      data: parseData(planned.data),
      redirect_uris: planned.redirect_uris ? [...planned.redirect_uris] : [],
      ...(typeof planned.origin_id === 'string' ? { origin_id: planned.origin_id } : {}),
    };
    const created = await ctx.client.createApiClient(body);
    let live: ApiClient = created;
    if (!planned.enabled) live = await ctx.client.updateApiClient(created.client_id, { status: 'disabled' });
    return fromClient(live, created.client_secret);
  },
  async update(ctx, prior, planned) {
    const live = await ctx.client.updateApiClient(prior.id, {
      status: planned.enabled ? 'enabled' : 'disabled',
      data: parseData(planned.data),
      redirect_uris: planned.redirect_uris ? [...planned.redirect_uris] : [],
    });
    return fromClient(live, prior.client_secret);
  },
  async delete(ctx, prior) {
    try {
      await ctx.client.deleteApiClient(prior.id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
  async adoptionCandidates() {
    // A client whose create answer was lost has a secret nobody knows: adopting it would give
    // a client without its secret, so none is offered (discardLost deletes it instead).
    return [];
  },
  async discardLost(ctx, pending) {
    if (typeof pending.origin_id !== 'string') return [];
    const made = (await ctx.client.findApiClientsByOrigin(pending.origin_id)).filter((c) => c.tenant_id === pending.tenant_id);
    for (const c of made) {
      try {
        await ctx.client.deleteApiClient(c.client_id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return made.map((c) => c.client_id);
  },
});

function parseData(v: string | null): Record<string, unknown> {
  if (v === null || v === '') return {};
  const parsed: unknown = JSON.parse(v);
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** The state of a client; the secret is never read back, so it is carried over from what is recorded. */
function fromClient(c: ApiClient, secret: string | null): StateOf<typeof attributes> {
  const data = c.data && Object.keys(c.data).length > 0 ? JSON.stringify(c.data) : null;
  return {
    id: c.client_id,
    tenant_id: c.tenant_id,
    type: c.type ?? 'api_client',
    token_endpoint_auth_method: c.token_endpoint_auth_method ?? 'client_secret_basic',
    enabled: c.status === 'enabled',
    data,
    redirect_uris: c.redirect_uris && c.redirect_uris.length > 0 ? [...c.redirect_uris] : null,
    client_secret: secret,
    created_at: c.created_at ?? null,
    origin_id: c.origin_id ?? null,
  };
}

export { SECRET_NOT_RECOVERABLE };
export default apiClient;
