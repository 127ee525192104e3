/**
 * The one place where camelCase (cdktf props, TypeScript) and snake_case (Terraform,
 * the platform) meet.
 */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Converts the keys of a props object (deeply, objects only) to snake_case. */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) out[snakeCase(k)] = snakeKeys(v);
    }
    return out;
  }
  return value;
}

/** The cdktf class of a kind: `tenantform_infra_component` → `InfraComponent`, data → `DataTenantform…`. */
export function constructName(type: string, kind: 'resource' | 'data'): string {
  const base = type.replace(/^tenantform_/, '').replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
  return kind === 'data' ? `DataTenantform${base}` : base;
}
