import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { languageErrors, type TenantformError } from '../errors';
import { fromPlain, type EvalContext, type Value } from '../expressions';
import { containsUnknown } from '../resources/values';
import { evaluateValue } from './expression-scope';
import { parseState } from './state';

/**
 * `data "terraform_remote_state"`: the outputs of another stack, which is what cdktf
 * synthesizes for a reference between stacks. Read from a local backend's state file when
 * the configuration is loaded.
 */

export const REMOTE_STATE_TYPE = 'terraform_remote_state';

/** The value of each `data.terraform_remote_state.<name>`: `{ backend, config, outputs }`. */
export function readRemoteStates(block: unknown, file: string, context: EvalContext, problems: TenantformError[]): Map<string, Value> {
  const out = new Map<string, Value>();
  if (block === null || typeof block !== 'object') return out;
  for (const [name, body] of Object.entries(block)) {
    if (name === '//') continue;
    const address = `data.${REMOTE_STATE_TYPE}.${name}`;
    const evaluated = evaluateValue(body, context, address);
    if (evaluated.diagnostics.length > 0 || containsUnknown(evaluated.value)) {
      problems.push(languageErrors.remoteState(address, [], 'Its arguments must be known before anything is read: use only variables and locals in them.'));
      continue;
    }
    const args = (evaluated.value ?? {}) as { backend?: unknown; config?: { path?: unknown }; defaults?: Record<string, unknown> };
    if (args.backend !== 'local') {
      problems.push(
        languageErrors.remoteState(address, ['backend'], `tenantform reads the outputs of other stacks from a local backend; "${String(args.backend)}" is read by Terraform: deploy with \`cdktf deploy\`.`),
      );
      continue;
    }
    const path = resolve(dirname(file), typeof args.config?.path === 'string' ? args.config.path : 'terraform.tfstate');
    let outputs: Record<string, unknown>;
    try {
      outputs = parseState(path, readFileSync(path, 'utf8')).outputs;
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? `there is no state at ${path}: apply the other stack first` : (err as Error).message;
      problems.push(languageErrors.remoteState(address, ['config', 'path'], reason));
      continue;
    }
    const values: Record<string, Value> = Object.create(null) as Record<string, Value>;
    for (const [k, v] of Object.entries(args.defaults ?? {})) values[k] = fromPlain(v);
    // As in Terraform, another stack's outputs are not sensitive here (cdktf marks every cross-stack output sensitive).
    for (const [k, o] of Object.entries(outputs)) values[k] = fromPlain((o as { value?: unknown }).value);
    out.set(name, { backend: 'local', config: fromPlain(args.config ?? {}), outputs: values });
  }
  return out;
}
