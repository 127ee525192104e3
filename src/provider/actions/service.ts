/**
 * The action calls of plugin protocol 6.10 (Terraform 1.14): ValidateActionConfig, PlanAction and
 * InvokeAction, over the action declarations. Terraform 1.11 to 1.13 never make these calls.
 */
import type { PlatformClient } from '../../api';
import { at, hasErrors, type Diagnostic } from '../../diagnostics';
import { toDiagnostic } from '../../resources/operations';
import { validateAttributes } from '../../resources/validate';
import { isUnknown } from '../../resources/values';
import type * as tfplugin6 from '../messages';
import { decodeState } from '../values';
import { ActionStepFailure, type ActionDeclaration } from './declaration';

/** What the actions need of the provider that serves them. */
export interface ActionHost {
  readonly actions: readonly ActionDeclaration[];
  /** The client ConfigureProvider made; undefined before it (or when its configuration is not known yet). */
  client(): PlatformClient | undefined;
  /** Aborted by StopProvider. */
  signal(): AbortSignal;
  /** True when ConfigureProvider met a configuration not known yet and Terraform allowed deferral. */
  configurationDeferred(): boolean;
  wire(d: Diagnostic): tfplugin6.Diagnostic;
}

export class ActionService {
  constructor(private readonly host: ActionHost) {}

  get declarations(): readonly ActionDeclaration[] {
    return this.host.actions;
  }

  /** ValidateActionConfig: the arguments against the declaration, before any request. */
  validate(req: tfplugin6.ValidateActionConfig_Request): tfplugin6.DiagnosticsResponse {
    const action = this.#action(req.type_name);
    if (!action) return this.#answer([unknownAction(req.type_name, this.host.actions)]);
    const config = decodeState(action.attributes, req.config);
    return this.#answer(config ? validateAction(action, config) : []);
  }

  /**
   * PlanAction: validation again (Terraform plans configurations it validated, but with values
   * known since). Honours `client_capabilities.deferral_allowed`: when the provider's own
   * configuration is not known yet, a Terraform that allows deferral is told to run the action in
   * a later round (PROVIDER_CONFIG_UNKNOWN) instead of failing.
   */
  plan(req: tfplugin6.PlanAction_Request): tfplugin6.PlanAction_Response {
    const action = this.#action(req.action_type);
    if (!action) return this.#answer([unknownAction(req.action_type, this.host.actions)]);
    const config = decodeState(action.attributes, req.config);
    const problems = config ? validateAction(action, config) : [];
    if (!hasErrors(problems) && this.host.configurationDeferred() && req.client_capabilities?.deferral_allowed) {
      return { ...this.#answer(problems), deferred: { reason: 'PROVIDER_CONFIG_UNKNOWN' } };
    }
    return this.#answer(problems);
  }

  /** InvokeAction: a progress event after each step, then one completed event carrying any failure. */
  async *invoke(req: tfplugin6.InvokeAction_Request): AsyncGenerator<tfplugin6.InvokeAction_Event> {
    const completed = (list: Diagnostic[]): tfplugin6.InvokeAction_Event => ({ completed: this.#answer(list) });
    const action = this.#action(req.action_type);
    if (!action) {
      yield completed([unknownAction(req.action_type, this.host.actions)]);
      return;
    }
    const address = `action.${action.type}`;
    const config = decodeState(action.attributes, req.config) ?? {};
    // Terraform invokes with every value known; a value that is not is refused before any request.
    const unknown = Object.keys(config).filter((name) => holdsUnknown(config[name]));
    const problems = validateAction(action, config);
    if (unknown.length > 0 || hasErrors(problems)) {
      yield completed([...unknown.map((name) => notKnown(address, name)), ...problems]);
      return;
    }
    const client = this.host.client();
    if (!client) {
      yield completed([notConfigured(address)]);
      return;
    }
    const signal = this.host.signal();
    if (signal.aborted) {
      yield completed([stopped(address)]);
      return;
    }
    try {
      for await (const message of action.invoke(config, { client, signal })) {
        yield { progress: { message } };
        if (signal.aborted) break;
      }
    } catch (err) {
      const failure = err instanceof ActionStepFailure ? toDiagnostic(err.cause, address, err.doing) : toDiagnostic(err, address, `running ${action.type}`);
      yield completed([failure]);
      return;
    }
    yield completed(signal.aborted ? [stopped(address)] : []);
  }

  #action(type: string | undefined): ActionDeclaration | undefined {
    return this.host.actions.find((a) => a.type === type);
  }

  #answer(list: Diagnostic[]): { diagnostics: tfplugin6.Diagnostic[] } {
    return { diagnostics: list.map((d) => this.host.wire(d)) };
  }
}

/** The arguments against the declaration, then its rules across arguments once all are known and valid. */
export function validateAction(action: ActionDeclaration, config: Record<string, unknown>): Diagnostic[] {
  const address = `action.${action.type}`;
  const problems = validateAttributes(action.attributes, config, address);
  if (problems.length > 0 || !action.check || Object.values(config).some(holdsUnknown)) return problems;
  return at(address, action.check(config));
}

function holdsUnknown(v: unknown): boolean {
  if (isUnknown(v)) return true;
  if (Array.isArray(v)) return v.some(holdsUnknown);
  if (v !== null && typeof v === 'object') return Object.values(v).some(holdsUnknown);
  return false;
}

function failure(summary: string, detail: string, address?: string, path?: string[]): Diagnostic {
  return { severity: 'error', summary, detail, address, path };
}

function unknownAction(type: string | undefined, actions: readonly ActionDeclaration[]): Diagnostic {
  return failure(`Unknown action "${type ?? ''}"`, `This tenantform provider serves the actions ${actions.map((a) => a.type).join(', ')}.`);
}

function notKnown(address: string, name: string): Diagnostic {
  const detail = `The action was invoked with \`${name}\` not known yet; nothing was sent. Invoke it once the value is known.`;
  return failure(`${name} is not known`, detail, address, [name]);
}

function notConfigured(address: string): Diagnostic {
  const detail = 'Terraform invoked the action before the provider was configured (or while its configuration is not known yet); nothing was sent.';
  return failure('The provider is not configured', detail, address);
}

function stopped(address: string): Diagnostic {
  const detail = 'Terraform asked the provider to stop while the action ran. The steps reported above were done; the rest were not started.';
  return failure('Stopped', detail, address);
}
