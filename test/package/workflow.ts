/** A `run:` step of a GitHub workflow run as a runner runs it: bash with `-eo pipefail`, in the job's folder. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, type RunResult } from '../provider/helpers';

export async function runStep(script: string, opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunResult> {
  const file = join(opts.cwd, '.step.sh');
  writeFileSync(file, script);
  return run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], opts);
}
