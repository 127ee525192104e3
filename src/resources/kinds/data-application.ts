import { z } from 'zod';
import type { Application } from '../../api';
import { resourceErrors } from '../errors';
import { attr } from '../attributes';
import { defineDataSource } from '../declaration';
import type { StateOf } from '../models';
import { exactlyOneOf } from '../validate';

const attributes = {
  id: attr.string({ mode: 'computed', description: 'The application id.' }),
  type: attr.string({
    mode: 'optional_computed',
    identifying: true,
    description: 'The application type, e.g. `backup`, `files_cloud`, `monitoring`. Set exactly one of `type` and `name`.',
  }),
  name: attr.string({
    mode: 'optional_computed',
    identifying: true,
    description: 'The display name, matched exactly (case-sensitive). Set exactly one of `type` and `name`.',
  }),
  usages: attr.list(z.string(), { mode: 'computed', description: 'Names of the metered usages of the application.' }),
  api_base_url: attr.string({ mode: 'computed', description: "Path prefix of the application's own API." }),
};

export const dataApplication = defineDataSource({
  type: 'tenantform_application',
  description: 'Finds an application of the platform catalogue by its `type` (e.g. `backup`) or its display `name`.',
  attributes,
  check: (config) => exactlyOneOf(config, ['type', 'name']),
  example: { name: 'backup', config: { type: 'backup' } },
  async read(ctx, config) {
    // The check sets exactly one of them.
    const found = matchApplications(await ctx.client.listApplications(), config.type !== null ? 'type' : 'name', config.type ?? config.name ?? '');
    return toState(found);
  },
});

/** The one application whose `by` equals `wanted`; not found or ambiguous otherwise. */
export function matchApplications(apps: readonly Application[], by: 'type' | 'name', wanted: string): Application {
  const found = apps.filter((a) => a[by] === wanted);
  const what = `${by} ${JSON.stringify(wanted)}`;
  if (found.length === 0) {
    const known = [...new Set(apps.map((a) => a[by]))].sort().join(', ');
    throw resourceErrors.dataSourceNotFound(dataApplication.type, `${what} (the platform has: ${known})`);
  }
  if (found.length > 1) throw resourceErrors.dataSourceAmbiguous(dataApplication.type, what, found.length);
  return found[0];
}

function toState(a: Application): StateOf<typeof attributes> {
  return { id: a.id, type: a.type, name: a.name, usages: a.usages ?? [], api_base_url: a.api_base_url ?? null };
}

export default dataApplication;
