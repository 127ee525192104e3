import type { PlannedChange } from '../../plans/model';
import type { ApplyContext } from './context';
import { createObject } from './create';
import { destroyObject } from './destroy';

/** Replaces the object as Terraform does by default: the old one is deleted, then the new one created. */
export async function replaceObject(ctx: ApplyContext, change: PlannedChange): Promise<boolean> {
  return (await destroyObject(ctx, change)) && createObject(ctx, change);
}
