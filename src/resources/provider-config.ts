import { attr } from './attributes';

export const PROVIDER_TYPE = 'tenantform';
export const PROVIDER_SOURCE = 'tenantform/tenantform';
export const PROVIDER_ADDRESS = 'registry.terraform.io/tenantform/tenantform';

/** Environment variables read when the provider block leaves an argument out. */
export const PROVIDER_ENV = {
  base_url: 'TENANTFORM_BASE_URL',
  client_id: 'TENANTFORM_CLIENT_ID',
  client_secret: 'TENANTFORM_CLIENT_SECRET',
} as const;

/** The provider block's arguments: one declaration for the schema, the construct and docs. */
export const PROVIDER_ATTRIBUTES = {
  base_url: attr.string({
    mode: 'optional',
    description: 'Base address of the data center, e.g. `https://eu2-cloud.example.com`. Falls back to TENANTFORM_BASE_URL.',
  }),
  client_id: attr.string({ mode: 'optional', description: 'API client id. Falls back to TENANTFORM_CLIENT_ID.' }),
  client_secret: attr.string({
    mode: 'optional',
    sensitive: true,
    description: 'API client secret. Falls back to TENANTFORM_CLIENT_SECRET; prefer the variable, so the secret stays out of code.',
  }),
} as const;
