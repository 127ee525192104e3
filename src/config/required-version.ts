import type { TenantformError } from '../errors';
import { settingsErrors } from './errors';

/**
 * The Terraform release whose language tenantform reads: `required_version` is checked against it,
 * as that Terraform checks it. (The state's `terraform_version` is another matter: what older
 * Terraform releases accept to read.)
 */
export const LANGUAGE_VERSION = '1.11.4';

type Version = readonly [number, number, number];

const CONSTRAINT = /^\s*(=|!=|>=|<=|>|<|~>)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/;

/** The `required_version` constraints of the `terraform` blocks, each checked. */
export function requiredVersionProblems(settings: readonly unknown[], version: string = LANGUAGE_VERSION): TenantformError[] {
  const running = parse(version)!;
  const problems: TenantformError[] = [];
  for (const setting of settings) {
    if (typeof setting !== 'string') {
      problems.push(settingsErrors.invalidRequiredVersion(String(setting)));
      continue;
    }
    const met = meets(running, setting);
    if (met === undefined) problems.push(settingsErrors.invalidRequiredVersion(setting));
    else if (!met) problems.push(settingsErrors.unsupportedTerraformVersion(setting, version));
  }
  return problems;
}

function parse(text: string): Version | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** True when `version` meets every comma-separated constraint; undefined when one cannot be read. */
function meets(version: Version, constraints: string): boolean | undefined {
  let all = true;
  for (const part of constraints.split(',')) {
    const m = CONSTRAINT.exec(part);
    if (!m) return undefined;
    const given = [m[3], m[4]].filter((x) => x !== undefined).length + 1;
    const wanted: Version = [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)];
    const order = compare(version, wanted);
    const op = m[1] ?? '=';
    const ok =
      op === '='
        ? order === 0
        : op === '!='
          ? order !== 0
          : op === '>'
            ? order > 0
            : op === '>='
              ? order >= 0
              : op === '<'
                ? order < 0
                : op === '<='
                  ? order <= 0
                  : order >= 0 && pessimisticCeiling(version, wanted, given);
    all &&= ok;
  }
  return all;
}

/** `~> 1.2` allows any 1.x from 1.2; `~> 1.2.3` any 1.2.x from 1.2.3; `~> 1` any 1.x. */
function pessimisticCeiling(version: Version, wanted: Version, given: number): boolean {
  const fixed = Math.max(1, given - 1);
  return version.slice(0, fixed).every((n, i) => n === wanted[i]);
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
