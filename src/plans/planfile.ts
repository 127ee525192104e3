import { readInputFile } from '../input-file';
import { planErrors } from './errors';
import { Unknown } from '../resources/values';
import type { PlanResult } from './model';
import { planFileProblem } from './plan-schema';
import { writeAtomically } from '../state/state-file';
import { MAX_DEPTH, ownValue, parsePlainJson } from '../plain-json';

/**
 * A saved plan (`plan --out`): the plan, the data source values it used, the hash of the
 * configuration and the state's lineage and serial. Applying it re-checks all of them.
 */
const FORMAT = 'tenantform-plan';
const FORMAT_VERSION = 1;
/** How a value known only after apply is written in a plan file. */
const UNKNOWN_MARK = { $tenantform: 'unknown' };

interface PlanFile extends PlanResult {
  readonly format: typeof FORMAT;
  readonly version: typeof FORMAT_VERSION;
}

export async function savePlan(file: string, result: PlanResult): Promise<void> {
  const doc: PlanFile = { format: FORMAT, version: FORMAT_VERSION, ...result };
  const text = JSON.stringify(doc, (_k, v: unknown) => (v === Unknown ? UNKNOWN_MARK : v), 2);
  await writeAtomically(file, `${text}\n`, { backup: false });
}

export function loadPlan(file: string): PlanResult {
  let doc: Partial<PlanFile>;
  try {
    doc = parsePlainJson(readInputFile(file), MAX_DEPTH, (v) =>
      ownValue(v, '$tenantform') === UNKNOWN_MARK.$tenantform ? Unknown : undefined,
    ) as Partial<PlanFile>;
  } catch (err) {
    throw planErrors.planfileUnreadable(file, (err as Error).message);
  }
  const problem = planFileProblem(doc);
  if (problem !== undefined) throw planErrors.planfileUnreadable(file, problem);
  return { plan: doc.plan!, data: doc.data! };
}
