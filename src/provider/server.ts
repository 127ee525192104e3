/**
 * The `tfplugin6.Provider` service: every RPC translated onto the resource modules. Nothing
 * here knows a resource kind; schemas, validation, planning and operations all come from
 * src/resources, so `terraform` and `tenantform` always agree.
 */
import { logExchange, logRoute } from '../logging';
import type { PlatformClient } from '../api';
import { baseUrlProblem } from '../api/base-url';
import type { AttributePath, Diagnostic } from '../diagnostics';
import { versionAttribute, type DataSourceKind, type OperationContext, type ResourceKind, type State } from '../resources/declaration';
import type { KindRegistry } from '../resources/registry';
import type { OperationResult } from '../resources/operations';
import { createResource, deleteResource, importResource, readDataSource, readResource, updateResource } from '../resources/operations';
import { planResource } from '../resources/plan';
import {
  DEFAULT_RETRY_TIMEOUT_SECONDS,
  parseRequestsPerSecond,
  parseRetryTimeout,
  PROVIDER_ATTRIBUTES,
  PROVIDER_ENV,
  REQUESTS_PER_SECOND_ENV,
  RETRY_TIMEOUT_ENV,
} from '../resources/provider-config';
import { schemaAttributes, terraformSchema, type SchemaAttribute } from '../resources/terraform-schema';
import { validateConfig } from '../resources/validate';
import { withIdentity, type IdentityCalls } from './identity';
import { withListResources } from './list-resources';
import { fingerprint, isUnknown, normalize, Unknown } from '../resources/values';
import { ReadCoalescer } from './read-coalescer';
import { ACTIONS } from './actions';
import type { ActionDeclaration } from './actions/declaration';
import { ActionService } from './actions/service';
import type * as tfplugin6 from './messages';
import { conformObject, decodeRaw, decodeState, encodeState, encodeUnknown, unknownsAsNull } from './values';

export function wirePath(path: AttributePath): tfplugin6.AttributePath {
  return { steps: path.map((step) => (typeof step === 'number' ? { element_key_int: step } : { attribute_name: step })) };
}

export function wireDiagnostic(d: Diagnostic): tfplugin6.Diagnostic {
  return {
    severity: d.severity === 'warning' ? 'WARNING' : 'ERROR',
    summary: d.summary,
    detail: d.detail,
    attribute: d.path && d.path.length > 0 ? wirePath(d.path) : null,
  };
}

function error(summary: string, detail: string, path?: AttributePath): Diagnostic {
  return { severity: 'error', summary, detail, path };
}

// ---- Schema ----

function wireAttribute(a: SchemaAttribute): tfplugin6.Schema_Attribute {
  return {
    name: a.name,
    type: a.type === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(a.type)),
    nested_type: a.nested ? { attributes: a.nested.attributes.map(wireAttribute), nesting: a.nested.nesting } : null,
    description: a.description,
    description_kind: 'MARKDOWN',
    required: a.required,
    optional: a.optional,
    computed: a.computed,
    sensitive: a.sensitive,
    // Terraform before 1.15 reads `deprecated` alone (and skips field 12); 1.15 and later show the message too.
    deprecated: a.deprecationMessage !== undefined,
    deprecation_message: a.deprecationMessage ?? '',
  };
}

function wireSchema(version: number, description: string, attributes: SchemaAttribute[]): tfplugin6.Schema {
  return {
    version,
    block: { version, attributes: attributes.map(wireAttribute), block_types: [], description, description_kind: 'MARKDOWN' },
  };
}

/** The answer of a plan or read while the provider's configuration is not known yet (see configureProvider). */
const PROVIDER_CONFIG_UNKNOWN: tfplugin6.Deferred = { reason: 'PROVIDER_CONFIG_UNKNOWN' };

const SERVER_CAPABILITIES: tfplugin6.ServerCapabilities = { plan_destroy: true, get_provider_schema_optional: false, move_resource_state: true };

const PROVIDER_DESCRIPTION =
  'tenantform manages the configuration of a multi-tenant cyber-protection platform: applications, tenant settings, infrastructure, agent updates, usage reports and event subscriptions.';

// ---- The provider ----

export interface ProviderOptions {
  /** The resource kinds and data sources served; loaded on first use when a function. */
  readonly kinds: KindRegistry | (() => KindRegistry);
  readonly env?: NodeJS.ProcessEnv;
  /** Makes the platform client; the default loads src/api only when the provider is configured. */
  readonly createClient?: (opts: {
    baseUrl: string;
    clientId: string;
    clientSecret: string;
    retry?: { maxElapsedMs: number };
    requestsPerSecond?: number;
    onEvent?: typeof logExchange;
    onRoute?: typeof logRoute;
  }) => PlatformClient;
  readonly log?: (line: string) => void;
  /** The actions served (Terraform 1.14 and later); every declared action by default. */
  readonly actions?: readonly ActionDeclaration[];
}

export class TenantformProvider {
  #kinds?: KindRegistry;
  #schemaResponse?: tfplugin6.GetProviderSchema_Response;
  #client?: PlatformClient;
  #stop = new AbortController();
  /** ConfigureProvider met settings not known yet, and Terraform allowed deferral (see configureProvider). */
  #configurationDeferred = false;
  readonly #reads = new ReadCoalescer();
  readonly #actions: ActionService;
  readonly #opts: ProviderOptions;
  readonly #env: NodeJS.ProcessEnv;

  constructor(opts: ProviderOptions) {
    this.#opts = opts;
    this.#env = opts.env ?? process.env;
    this.#actions = new ActionService({
      actions: opts.actions ?? ACTIONS,
      client: () => this.#client,
      signal: () => this.#stop.signal,
      configurationDeferred: () => this.#configurationDeferred,
      wire: wireDiagnostic,
    });
  }

  /** Loads the kinds now (the entry point does it right after the handshake line). */
  kinds(): KindRegistry {
    this.#kinds ??= typeof this.#opts.kinds === 'function' ? this.#opts.kinds() : this.#opts.kinds;
    return this.#kinds;
  }

  /** Cancels operations in flight (Terraform's StopProvider, after Ctrl-C). */
  stop(): void {
    this.#stop.abort();
  }

  async close(): Promise<void> {
    this.stop();
    await this.#client?.close();
  }

  /** The RPCs of `tfplugin6.Provider`, keyed by method name. */
  handlers(): tfplugin6.ProviderService {
    const kinds = () => this.kinds();
    const client = () => this.#client;
    return withListResources(kinds, withIdentity(kinds, this.#calls()), { wireSchema, wireDiagnostic, client });
  }

  /** The RPCs of Terraform 1.11 and older; identity and list resources are added around them. */
  #calls(): Omit<tfplugin6.ProviderService, IdentityCalls | tfplugin6.ListCalls> {
    return {
      GetMetadata: async () => this.getMetadata(),
      GetProviderSchema: async () => this.getProviderSchema(),
      ValidateProviderConfig: async (req) => this.validateProviderConfig(req),
      ValidateResourceConfig: async (req) => this.validateConfig(req, 'resource'),
      ValidateDataResourceConfig: async (req) => this.validateConfig(req, 'data'),
      UpgradeResourceState: async (req) => this.upgradeResourceState(req),
      ConfigureProvider: async (req) => this.configureProvider(req),
      ReadResource: (req) => this.readResource(req),
      PlanResourceChange: async (req) => this.planResourceChange(req),
      ApplyResourceChange: (req) => this.applyResourceChange(req),
      ImportResourceState: (req) => this.importResourceState(req),
      MoveResourceState: async (req) => this.moveResourceState(req),
      ReadDataSource: (req) => this.readDataSource(req),
      ValidateEphemeralResourceConfig: async (req) => noEphemeral(req),
      OpenEphemeralResource: async (req) => noEphemeral(req),
      RenewEphemeralResource: async (req) => noEphemeral(req),
      CloseEphemeralResource: async (req) => noEphemeral(req),
      GetFunctions: async () => ({ functions: {}, diagnostics: [] }),
      CallFunction: async (req) => ({ error: { text: `tenantform has no function named "${req.name ?? ''}".` } }),
      StopProvider: async () => {
        this.stop();
        return { Error: '' };
      },
      ValidateActionConfig: async (req) => this.#actions.validate(req),
      PlanAction: async (req) => this.#actions.plan(req),
      InvokeAction: (req) => this.#actions.invoke(req),
    };
  }

  getMetadata(): tfplugin6.GetMetadata_Response {
    return {
      server_capabilities: SERVER_CAPABILITIES,
      diagnostics: [],
      resources: this.kinds().resources.map((k) => ({ type_name: k.type })),
      data_sources: this.kinds().dataSources.map((k) => ({ type_name: k.type })),
      functions: [],
      ephemeral_resources: [],
      actions: this.#actions.declarations.map((a) => ({ type_name: a.type })),
    };
  }

  getProviderSchema(): tfplugin6.GetProviderSchema_Response {
    if (!this.#schemaResponse) {
      const resourceSchemas: Record<string, tfplugin6.Schema> = {};
      const dataSourceSchemas: Record<string, tfplugin6.Schema> = {};
      for (const kind of this.kinds().all) {
        const s = terraformSchema(kind);
        (kind.kind === 'resource' ? resourceSchemas : dataSourceSchemas)[kind.type] = wireSchema(s.version, s.description, s.attributes);
      }
      this.#schemaResponse = {
        provider: wireSchema(0, PROVIDER_DESCRIPTION, schemaAttributes(PROVIDER_ATTRIBUTES)),
        resource_schemas: resourceSchemas,
        data_source_schemas: dataSourceSchemas,
        diagnostics: [],
        server_capabilities: SERVER_CAPABILITIES,
        functions: {},
        ephemeral_resource_schemas: {},
        action_schemas: Object.fromEntries(
          this.#actions.declarations.map((a) => [a.type, { schema: wireSchema(0, a.description, schemaAttributes(a.attributes)) }]),
        ),
      };
    }
    return this.#schemaResponse;
  }

  validateProviderConfig(req: tfplugin6.ValidateProviderConfig_Request): tfplugin6.DiagnosticsResponse {
    const config = decodeState(PROVIDER_ATTRIBUTES, req.config) ?? {};
    const problems = validateConfig(PROVIDER_BLOCK, config, 'provider.tenantform');
    return diagnostics(problems);
  }

  validateConfig(req: tfplugin6.ValidateResourceConfig_Request, expected: 'resource' | 'data'): tfplugin6.DiagnosticsResponse {
    const found = expected === 'resource' ? this.#resource(req.type_name) : this.#dataSource(req.type_name);
    if (!found) return this.#unknownType(req.type_name, expected);
    const config = decodeState(found.attributes, req.config);
    if (!config) return diagnostics([]);
    return diagnostics(validateConfig(found, config, found.type));
  }

  upgradeResourceState(req: tfplugin6.UpgradeResourceState_Request): tfplugin6.UpgradeResourceState_Response {
    const kind = this.#resource(req.type_name);
    if (!kind) return this.#unknownType(req.type_name, 'resource');
    const raw = req.raw_state;
    if (!raw?.json || raw.json.length === 0) {
      if (raw?.flatmap && Object.keys(raw.flatmap).length > 0) {
        return diagnostics([
          error(
            'Unsupported state format',
            `The state of this ${kind.type} is in the flatmap format of Terraform 0.11, which tenantform never wrote. Remove it from the state and import the object again.`,
          ),
        ]);
      }
      return { upgraded_state: encodeState(kind.attributes, null), diagnostics: [] };
    }
    const version = req.version ?? 0;
    if (version > kind.schemaVersion) {
      return diagnostics([
        error(
          'State written by a newer tenantform',
          `The state of this ${kind.type} has schema version ${version}, but this provider knows version ${kind.schemaVersion}. Use the tenantform version that wrote it (or newer).`,
        ),
      ]);
    }
    let stored = JSON.parse(Buffer.from(raw.json).toString('utf8')) as State;
    if (version < kind.schemaVersion && kind.upgradeState) stored = kind.upgradeState(version, stored);
    const upgraded = normalize(kind.attributes, conformObject(kind.attributes, stored));
    return { upgraded_state: encodeState(kind.attributes, upgraded), diagnostics: [] };
  }

  /**
   * A `moved` block whose two ends Terraform records under different provider addresses (the
   * same tenantform resource type, installed first from one registry and then from another):
   * the state moves as it is, upgraded from the schema version it was written with, and keeps
   * its private data. The identity is added beside it (see identity.ts). Another resource type
   * never describes the same object, so its state is refused.
   */
  moveResourceState(req: tfplugin6.MoveResourceState_Request): tfplugin6.MoveResourceState_Response {
    const kind = this.#resource(req.target_type_name);
    if (!kind) return this.#unknownType(req.target_type_name, 'resource');
    if (req.source_type_name !== kind.type) {
      return diagnostics([
        error(
          'Moving state is not supported',
          `A ${kind.type} cannot take over the state of a ${req.source_type_name ?? 'resource'}: the two describe different objects. Import the object instead (\`terraform import\`).`,
        ),
      ]);
    }
    const moved = this.upgradeResourceState({ type_name: kind.type, version: req.source_schema_version, raw_state: req.source_state });
    if (!moved.upgraded_state) return moved;
    return { target_state: moved.upgraded_state, target_private: req.source_private ?? Buffer.alloc(0), diagnostics: moved.diagnostics ?? [] };
  }

  /**
   * Client capabilities (ConfigureProvider.Request field 3, sent by Terraform 1.9 and later, and so
   * by 1.14 to 1.16): `deferral_allowed` is honoured. A setting not known yet (it depends on a
   * resource created in the same run) is an error, unless Terraform allows deferral: then the
   * provider stays unconfigured and answers the plans and reads of this round as deferred
   * (PROVIDER_CONFIG_UNKNOWN), as PlanAction does, and Terraform plans them again once it is known.
   * `write_only_attributes_allowed` changes nothing here: no tenantform attribute is write-only.
   * Capability fields newer than these two are skipped when the request is decoded, so a newer
   * Terraform's requests are read as before.
   */
  configureProvider(req: tfplugin6.ConfigureProvider_Request): tfplugin6.DiagnosticsResponse {
    const config = decodeState(PROVIDER_ATTRIBUTES, req.config) ?? {};
    const settings: Record<string, string> = {};
    const problems: Diagnostic[] = [];
    const deferrable = req.client_capabilities?.deferral_allowed === true;
    this.#configurationDeferred = false;
    for (const [name, variable] of Object.entries(PROVIDER_ENV)) {
      const configured = config[name];
      if (isUnknown(configured) && deferrable) {
        this.#configurationDeferred = true;
        continue;
      }
      if (isUnknown(configured)) {
        problems.push(
          error(`${name} is not known yet`, `The provider needs \`${name}\` before planning; it cannot depend on a resource created in the same run.`, [name]),
        );
        continue;
      }
      const value = typeof configured === 'string' && configured !== '' ? configured : this.#env[variable];
      if (!value) {
        problems.push(error(`Missing ${name}`, `Set \`${name}\` in the provider "tenantform" block, or the environment variable ${variable}.`, [name]));
        continue;
      }
      settings[name] = value;
    }
    const urlProblem = settings.base_url === undefined ? undefined : baseUrlProblem(settings.base_url);
    if (urlProblem !== undefined) problems.push(error('Invalid base_url', `base_url (or ${PROVIDER_ENV.base_url}): ${urlProblem}.`, ['base_url']));
    const configuredTimeout = config.retry_timeout ?? this.#env[RETRY_TIMEOUT_ENV];
    const retrySeconds =
      configuredTimeout === undefined || configuredTimeout === null || configuredTimeout === ''
        ? DEFAULT_RETRY_TIMEOUT_SECONDS
        : parseRetryTimeout(configuredTimeout);
    if (retrySeconds === undefined) {
      problems.push(error('Invalid retry_timeout', `retry_timeout (or ${RETRY_TIMEOUT_ENV}) must be a number of seconds from 0 to 86400.`, ['retry_timeout']));
    }
    const configuredRate = config.requests_per_second ?? this.#env[REQUESTS_PER_SECOND_ENV];
    const requestsPerSecond =
      configuredRate === undefined || configuredRate === null || configuredRate === '' ? undefined : parseRequestsPerSecond(configuredRate);
    if (requestsPerSecond === undefined && configuredRate !== undefined && configuredRate !== null && configuredRate !== '') {
      problems.push(
        error(
          'Invalid requests_per_second',
          `requests_per_second (or ${REQUESTS_PER_SECOND_ENV}) must be a number of requests per second above 0 and at most 10000.`,
          ['requests_per_second'],
        ),
      );
    }
    if (problems.length > 0 || retrySeconds === undefined || this.#configurationDeferred) return diagnostics(problems);
    try {
      const create =
        this.#opts.createClient ??
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        ((o) => new (require('../api/client') as typeof import('../api/client')).PlatformClient(o));
      const previous = this.#client;
      this.#client = create({
        baseUrl: settings.base_url,
        clientId: settings.client_id,
        clientSecret: settings.client_secret,
        retry: { maxElapsedMs: retrySeconds * 1000 },
        requestsPerSecond,
        onEvent: logExchange,
        onRoute: logRoute,
      });
      void previous?.close();
    } catch (err) {
      return diagnostics([error('Invalid provider configuration', err instanceof Error ? err.message : String(err), ['base_url'])]);
    }
    return diagnostics([]);
  }

  async readResource(req: tfplugin6.ReadResource_Request): Promise<tfplugin6.ReadResource_Response> {
    const kind = this.#resource(req.type_name);
    if (!kind) return this.#unknownType(req.type_name, 'resource');
    const state = decodeState(kind.attributes, req.current_state);
    if (!state) return { new_state: encodeState(kind.attributes, null), private: req.private, diagnostics: [] };
    if (this.#configurationDeferred)
      return { new_state: req.current_state ?? undefined, private: req.private, diagnostics: [], deferred: PROVIDER_CONFIG_UNKNOWN };
    const result = await this.#run((ctx) => this.#reads.read(ctx, { kind, address: kind.type, state }));
    const failed = result.diagnostics.some((d) => d.severity === 'error');
    return {
      // A failed read keeps the recorded object: null would tell Terraform it is gone.
      new_state: encodeState(kind.attributes, failed ? state : (result.value ?? null)),
      private: req.private,
      diagnostics: result.diagnostics.map(wireDiagnostic),
    };
  }

  async planResourceChange(req: tfplugin6.PlanResourceChange_Request): Promise<tfplugin6.PlanResourceChange_Response> {
    const kind = this.#resource(req.type_name);
    if (!kind) return this.#unknownType(req.type_name, 'resource');
    if (this.#configurationDeferred) return { planned_state: deferredPlan(kind, req.proposed_new_state), diagnostics: [], deferred: PROVIDER_CONFIG_UNKNOWN };
    const prior = decodeState(kind.attributes, req.prior_state);
    const proposed = decodeRaw(req.proposed_new_state);
    const config = proposed === null || proposed === undefined ? null : decodeState(kind.attributes, req.config);
    const client = this.#client;
    // Terraform plans each instance on its own: their questions to the platform share the answers of this plan's reads.
    const plan = await planResource({ kind, address: kind.type, config, prior, ctx: client && { client: this.#reads.reads(client) } });
    // Objects without a version field: the plan records a fingerprint of what it saw, and
    // applying re-checks it, so a saved plan never overwrites a change made since.
    const seen = prior && plan.action !== 'no-op' && !versionAttribute(kind) ? { fingerprint: fingerprint(kind.attributes, prior) } : undefined;
    return {
      planned_state: encodeState(kind.attributes, plan.planned),
      requires_replace: plan.requiresReplace.map(wirePath),
      planned_private: encodePrivate({ seen }),
      diagnostics: plan.diagnostics.map(wireDiagnostic),
    };
  }

  /** A diagnostic when the object is no longer what the plan saw; undefined when it is. */
  async #changedSincePlan(kind: ResourceKind, prior: State, seen: { fingerprint: string }, deleting: boolean): Promise<Diagnostic | undefined> {
    const read = await this.#run((ctx) => readResource({ kind, address: kind.type, ctx, state: prior }));
    if (read.value === undefined) return read.diagnostics[0];
    const what = `${kind.type} ${kind.identity(prior)}`;
    if (read.value === null) {
      // Deleting what is already gone is done; updating it is not.
      return deleting
        ? undefined
        : error(
            'The object no longer exists',
            `${what} was deleted on the platform after the plan was made. Nothing was changed. Run \`terraform plan\` again to recreate it.`,
          );
    }
    const now = fingerprint(kind.attributes, read.value);
    if (now === seen.fingerprint) return undefined;
    return error(
      'The object was changed by someone else',
      `${what} changed on the platform after the plan was made (fingerprint ${now}, the plan saw ${seen.fingerprint}). ` +
        'Nothing was overwritten. Run `terraform plan` to see the other change, then apply again.',
    );
  }

  async applyResourceChange(req: tfplugin6.ApplyResourceChange_Request): Promise<tfplugin6.ApplyResourceChange_Response> {
    this.#reads.forget();
    try {
      return await this.#applyResourceChange(req);
    } finally {
      this.#reads.forget();
    }
  }

  async #applyResourceChange(req: tfplugin6.ApplyResourceChange_Request): Promise<tfplugin6.ApplyResourceChange_Response> {
    const kind = this.#resource(req.type_name);
    if (!kind) return this.#unknownType(req.type_name, 'resource');
    const prior = decodeState(kind.attributes, req.prior_state);
    const planned = decodeState(kind.attributes, req.planned_state);
    const address = kind.type;
    const seen = decodePrivate(req.planned_private).seen;
    if (prior && seen) {
      const changed = await this.#changedSincePlan(kind, prior, seen, !planned);
      if (changed) return { new_state: encodeState(kind.attributes, prior), private: req.planned_private, diagnostics: [wireDiagnostic(changed)] };
    }
    let newState: State | null;
    let result: OperationResult<unknown>;
    if (!planned) {
      if (!prior) return { new_state: encodeState(kind.attributes, null), diagnostics: [] };
      result = await this.#run((ctx) => deleteResource({ kind, address, ctx, prior }));
      newState = hasError(result) ? prior : null;
    } else if (!prior) {
      const created = await this.#run((ctx) => createResource({ kind, address, ctx, planned: unknownsAsNull(planned) }));
      result = created;
      newState = created.value ?? null;
    } else {
      const updated = await this.#run((ctx) => updateResource({ kind, address, ctx, prior, planned: unknownsAsNull(planned) }));
      result = updated;
      // A refused update leaves the object as it was.
      newState = updated.value ?? prior;
    }
    return {
      new_state: encodeState(kind.attributes, newState),
      private: Buffer.alloc(0),
      diagnostics: result.diagnostics.map(wireDiagnostic),
    };
  }

  async importResourceState(req: tfplugin6.ImportResourceState_Request): Promise<tfplugin6.ImportResourceState_Response> {
    const kind = this.#resource(req.type_name);
    if (!kind) return this.#unknownType(req.type_name, 'resource');
    const id = req.id ?? '';
    const result = await this.#run((ctx) => importResource({ kind, address: kind.type, ctx, id }));
    // Terraform does not tell the provider the address being imported.
    const notImported = result.value ? kind.importWarning?.(result.value, undefined) : undefined;
    const warnings = notImported ? [notImported] : [];
    return {
      imported_resources: result.value ? [{ type_name: kind.type, state: encodeState(kind.attributes, result.value), private: Buffer.alloc(0) }] : [],
      diagnostics: [...result.diagnostics, ...warnings].map(wireDiagnostic),
    };
  }

  async readDataSource(req: tfplugin6.ReadDataSource_Request): Promise<tfplugin6.ReadDataSource_Response> {
    const kind = this.#dataSource(req.type_name);
    if (!kind) return this.#unknownType(req.type_name, 'data');
    // Read in a later round: the whole result is not known yet.
    if (this.#configurationDeferred) return { state: encodeUnknown(), diagnostics: [], deferred: PROVIDER_CONFIG_UNKNOWN };
    const config = decodeState(kind.attributes, req.config) ?? {};
    const result = await this.#run((ctx) =>
      readDataSource({ kind, address: kind.type, ctx: { ...ctx, client: this.#reads.reads(ctx.client) }, config: unknownsAsNull(config) }),
    );
    return {
      state: encodeState(kind.attributes, hasError(result) ? null : (result.value ?? null)),
      diagnostics: result.diagnostics.map(wireDiagnostic),
    };
  }

  /** Runs an operation with the configured client; a stop answers at once with a diagnostic. */
  async #run<T>(operation: (ctx: OperationContext) => Promise<OperationResult<T>>): Promise<OperationResult<T>> {
    if (!this.#client) {
      return { diagnostics: [error('The provider is not configured', 'Terraform called an operation before ConfigureProvider; this is a bug in the caller.')] };
    }
    const signal = this.#stop.signal;
    if (signal.aborted) return { diagnostics: [stopped()] };
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<OperationResult<T>>((resolve) => {
      onAbort = () => resolve({ diagnostics: [stopped()] });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([operation({ client: this.#client, signal }), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  #resource(typeName: string | undefined): ResourceKind | undefined {
    return this.kinds().resource(typeName ?? '');
  }

  #dataSource(typeName: string | undefined): DataSourceKind | undefined {
    return this.kinds().dataSource(typeName ?? '');
  }

  #unknownType(typeName: string | undefined, expected: 'resource' | 'data'): tfplugin6.DiagnosticsResponse {
    const known = (expected === 'data' ? this.kinds().dataSources : this.kinds().resources).map((k) => k.type);
    return diagnostics([
      error(
        `Unknown ${expected === 'data' ? 'data source' : 'resource type'} "${typeName ?? ''}"`,
        `This tenantform provider serves ${known.join(', ') || 'none'}.`,
      ),
    ]);
  }
}

/** The provider's private data of a planned change (opaque to Terraform, handed back on apply). */
interface PlanPrivate {
  readonly seen?: { readonly fingerprint: string };
}

function encodePrivate(p: PlanPrivate): Buffer {
  return p.seen ? Buffer.from(JSON.stringify(p)) : Buffer.alloc(0);
}

function decodePrivate(bytes: Uint8Array | undefined): PlanPrivate {
  if (!bytes || bytes.length === 0) return {};
  try {
    const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as PlanPrivate;
    return typeof parsed.seen?.fingerprint === 'string' ? parsed : {};
  } catch {
    return {};
  }
}

/** The plan of a deferred change: the proposed object, what the platform would set not known yet. */
function deferredPlan(kind: ResourceKind, proposed: tfplugin6.DynamicValue | null | undefined): tfplugin6.DynamicValue {
  const planned = decodeState(kind.attributes, proposed);
  if (!planned) return encodeState(kind.attributes, null);
  for (const [name, a] of Object.entries(kind.attributes)) if (planned[name] === null && schemaAttributes({ [name]: a })[0].computed) planned[name] = Unknown;
  return encodeState(kind.attributes, planned);
}

function diagnostics(list: Diagnostic[]): { diagnostics: tfplugin6.Diagnostic[] } {
  return { diagnostics: list.map(wireDiagnostic) };
}

function hasError(result: OperationResult<unknown>): boolean {
  return result.diagnostics.some((d) => d.severity === 'error');
}

function stopped(): Diagnostic {
  return error(
    'Stopped',
    'Terraform asked the provider to stop while the change was in progress. The platform may or may not have made it; run `terraform plan` to see where things stand.',
  );
}

function noEphemeral(req: tfplugin6.ValidateEphemeralResourceConfig_Request | tfplugin6.RenewEphemeralResource_Request): tfplugin6.DiagnosticsResponse {
  return diagnostics([error('No ephemeral resources', `tenantform has no ephemeral resource "${req.type_name ?? ''}".`)]);
}

/** The provider block, described as a kind so that validateConfig checks it like any other. */
const PROVIDER_BLOCK: DataSourceKind = {
  kind: 'data',
  type: 'tenantform',
  description: PROVIDER_DESCRIPTION,
  attributes: PROVIDER_ATTRIBUTES,
  example: { name: 'tenantform', config: {} },
  read: async () => {
    throw new Error('the provider block is configuration only');
  },
};
