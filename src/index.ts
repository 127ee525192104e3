/**
 * tenantform for cdktf apps: the provider construct and one construct per resource kind
 * and data source (`new InfraComponent(this, 'primary', { ... })`).
 */
export { TenantformProvider, type TenantformProviderProps } from './cdk/construct';
export * from './cdk/constructs.generated';
