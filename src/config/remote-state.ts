import { plainObject } from '../plain-json';
import { SPOKEN_BACKENDS } from '../backends';
import { type TenantformError } from '../errors';
import { languageErrors } from './language-errors';
import { fromPlain, type EvalContext, type Value } from '../expressions';
import { containsUnknown } from '../resources/values';
import { evaluateValue } from './expression-scope';
import { parseState } from '../state/state';
import { REMOTE_STATE_TYPE, type NamedBlock } from './model';

/**
 * `data "terraform_remote_state"`: the outputs of another stack, which is what cdktf
 * synthesizes for a reference between stacks. The engine's session reads the states through
 * their backends (src/engine/remote-states.ts) before the configuration is evaluated, so that
 * loading it stays synchronous and does no I/O.
 */

/** One `data.terraform_remote_state` block, its arguments evaluated. */
export interface RemoteStateRequest {
  readonly name: string;
  readonly address: string;
  readonly backend: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly defaults: Readonly<Record<string, unknown>>;
  readonly workspace: string;
}

/** The state text read for one request (undefined when there is none yet), or why it could not be read. */
export type RemoteStateRead = { readonly text: string | undefined; readonly location: string } | { readonly problem: string };

/** The remote states a configuration declares; problems for arguments that are unknown or name a backend tenantform does not speak. */
export function remoteStateRequests(blocks: readonly NamedBlock[], context: EvalContext, problems: TenantformError[]): RemoteStateRequest[] {
  const requests: RemoteStateRequest[] = [];
  for (const [name, body] of blocks) {
    const address = `data.${REMOTE_STATE_TYPE}.${name}`;
    const evaluated = evaluateValue(body, context, address);
    if (evaluated.diagnostics.length > 0 || containsUnknown(evaluated.value)) {
      problems.push(languageErrors.remoteState(address, [], 'Its arguments must be known before anything is read: use only variables and locals in them.'));
      continue;
    }
    const args = (evaluated.value ?? {}) as { backend?: unknown; config?: Record<string, unknown>; defaults?: Record<string, unknown>; workspace?: unknown };
    if (typeof args.backend !== 'string' || !(SPOKEN_BACKENDS as readonly string[]).includes(args.backend)) {
      problems.push(
        languageErrors.remoteState(
          address,
          ['backend'],
          `tenantform reads the outputs of other stacks from ${SPOKEN_BACKENDS.join(', ')} backends; "${String(args.backend)}" is read by Terraform: deploy with \`cdktf deploy\`.`,
        ),
      );
      continue;
    }
    const workspace = typeof args.workspace === 'string' && args.workspace !== '' ? args.workspace : 'default';
    requests.push({ name, address, backend: args.backend, config: args.config ?? {}, defaults: args.defaults ?? {}, workspace });
  }
  return requests;
}

/** The `data.terraform_remote_state` blocks, each with the outputs of the state it reads; problems go to `report`. */
export function readRemoteStates(
  blocks: readonly NamedBlock[],
  context: EvalContext,
  reads: ReadonlyMap<string, RemoteStateRead> | undefined,
  report: (problem: TenantformError) => void,
): Map<string, Value> {
  const problems: TenantformError[] = [];
  const values = remoteStateValues(remoteStateRequests(blocks, context, problems), reads ?? new Map(), problems);
  problems.forEach(report);
  return values;
}

/** The value of each `data.terraform_remote_state.<name>`: `{ backend, config, outputs }`. */
export function remoteStateValues(
  requests: readonly RemoteStateRequest[],
  reads: ReadonlyMap<string, RemoteStateRead>,
  problems: TenantformError[],
): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const r of requests) {
    const read = reads.get(r.address) ?? { problem: 'the configuration was evaluated before the remote states were read' };
    if ('problem' in read || read.text === undefined) {
      problems.push(
        languageErrors.remoteState(
          r.address,
          ['config'],
          'problem' in read ? read.problem : `there is no state in ${read.location}: apply the other stack first`,
        ),
      );
      continue;
    }
    let outputs: Record<string, unknown>;
    try {
      outputs = parseState(read.location, read.text).outputs;
    } catch (err) {
      problems.push(languageErrors.remoteState(r.address, ['config'], (err as Error).message));
      continue;
    }
    const values: Record<string, Value> = plainObject<Value>();
    for (const [k, v] of Object.entries(r.defaults)) values[k] = fromPlain(v);
    // As in Terraform, another stack's outputs are not sensitive here (cdktf marks every cross-stack output sensitive).
    for (const [k, o] of Object.entries(outputs)) values[k] = fromPlain((o as { value?: unknown }).value);
    out.set(r.name, { backend: r.backend, config: fromPlain(r.config), outputs: values });
  }
  return out;
}
