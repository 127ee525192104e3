import { PROVIDER_SOURCE, PROVIDER_TYPE } from '../resources/provider-config';
import type { TenantExport } from './model';
import { literalValues, templateLiteral } from './template-literal';

/**
 * Renders an export as Terraform JSON (`resource.<type>.<name>`), the form `cdktf synth`
 * writes, so that `tenantform plan --config <file>` and `terraform` read it directly.
 * Tenant and application names go into the top-level `//` comment, which Terraform ignores.
 */
export function renderTerraformJson(exp: TenantExport, options: { importBlocks?: boolean } = {}): string {
  const resource: Record<string, Record<string, unknown>> = {};
  for (const o of exp.objects) {
    // Every string Terraform reads here is a template: platform text goes in as a literal.
    const config = literalValues(o.config, templateLiteral) as Record<string, unknown>;
    (resource[o.kind.type] ??= {})[o.name] = o.dependsOn.length > 0 ? { ...config, depends_on: [...o.dependsOn] } : config;
  }
  const named = namedInConfiguration(exp);
  const doc = {
    '//': {
      exported_by: `tenantform export --tenant ${exp.root.id}`,
      stack: exp.stack,
      tenants: Object.fromEntries(named.tenants.map((t) => [t.id, t.name])),
      applications: Object.fromEntries(named.applications.map((a) => [a.id, a.name])),
    },
    terraform: { required_providers: { [PROVIDER_TYPE]: { source: PROVIDER_SOURCE } } },
    // Credentials come from the environment, so the file holds no secret.
    provider: { [PROVIDER_TYPE]: [{}] },
    resource,
    // Import blocks adopt every object in the first plan, as `cdktf synth` writes `importFrom`.
    ...(options.importBlocks ? { import: exp.objects.map((o) => ({ to: o.address, id: templateLiteral(o.importId) })) } : {}),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The tenants and applications whose ids the exported configuration holds: their names go into its comments. */
export function namedInConfiguration(exp: TenantExport): { tenants: TenantExport['tenants']; applications: TenantExport['applications'] } {
  const usedIds = new Set(JSON.stringify(exp.objects.map((o) => o.config)).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []);
  return { tenants: exp.tenants.filter((t) => usedIds.has(t.id)), applications: exp.applications.filter((a) => usedIds.has(a.id)) };
}
