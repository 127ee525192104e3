import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureBuilt, requireTerraform, run as runProcess, terraformEnvironment } from '../provider/helpers';
import { startWorld, type World } from './helpers';

/** A plan in Terraform's JSON shape (`tenantform plan --format json`, `terraform show -json`): what the folder tests compare. */
export interface PlanJson {
  resource_changes: Array<{ address: string; change: { actions: string[]; after: Record<string, unknown> } }>;
}

/** Each planned change (reads left out) with what the configuration says of it, by address. */
export function changes(plan: PlanJson): Array<[string, string[], unknown]> {
  return plan.resource_changes
    .filter((c) => !c.change.actions.includes('read'))
    .map((c): [string, string[], unknown] => [
      c.address,
      c.change.actions,
      { name: c.change.after.name, contact: c.change.after.contact, login: c.change.after.login },
    ])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** A folder of Terraform files in a fresh world, `terraform init` run in it with tenantform's provider. */
export interface TerraformFolderWorld {
  readonly world: World;
  /** The folder's absolute path. */
  readonly folder: string;
  /** terraform in the folder, with the provider and the emulator's credentials. */
  readonly terraform: (...args: string[]) => ReturnType<typeof runProcess>;
  /** `terraform show -json` of a saved plan, parsed. */
  readonly shownPlan: (file: string) => Promise<PlanJson>;
  /** Writes files into the folder (subfolders made as needed). */
  readonly write: (files: Record<string, string>) => void;
  /** terraform in the folder with exactly these arguments (`state show` and `output` take no `-input`). */
  readonly terraformExactly: (...args: string[]) => ReturnType<typeof runProcess>;
}

export async function startTerraformFolder(name: string, files: Record<string, string>): Promise<TerraformFolderWorld> {
  requireTerraform();
  await ensureBuilt();
  const world = await startWorld();
  const folder = join(world.dir, name);
  mkdirSync(folder, { recursive: true });
  const write = (more: Record<string, string>) => {
    for (const [file, text] of Object.entries(more)) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      writeFileSync(join(folder, file), text);
    }
  };
  write(files);
  const env = await terraformEnvironment(world.dir, world.emulator, `${name}-${process.pid}`);
  const terraform = (...args: string[]) => runProcess('terraform', [...args, '-input=false', '-no-color'], { cwd: folder, env });
  const init = await terraform('init');
  if (init.code !== 0) throw new Error(init.output);
  const shownPlan = async (file: string) => JSON.parse((await runProcess('terraform', ['show', '-json', file], { cwd: folder, env })).stdout) as PlanJson;
  const terraformExactly = (...args: string[]) => runProcess('terraform', args, { cwd: folder, env });
  return { world, folder, terraform, shownPlan, write, terraformExactly };
}
