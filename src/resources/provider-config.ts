import { attr } from './attributes';

export const PROVIDER_TYPE = 'tenantform';
export const PROVIDER_SOURCE = 'tenantform/tenantform';
/** Terraform's registry: the host of a source address that names none. */
export const DEFAULT_REGISTRY_HOST = 'registry.terraform.io';
/** The address recorded when the configuration names no source (`tenantform/tenantform` on Terraform's registry). */
export const PROVIDER_ADDRESS = `${DEFAULT_REGISTRY_HOST}/${PROVIDER_SOURCE}`;

const SOURCE_LABEL = /^[0-9a-z](?:[0-9a-z_-]{0,62}[0-9a-z])?$/;
const SOURCE_HOST = /^(?:[0-9a-z](?:[0-9a-z-]{0,61}[0-9a-z])?)(?:\.[0-9a-z](?:[0-9a-z-]{0,61}[0-9a-z])?)*(?::[0-9]{1,5})?$/;

/**
 * A provider source address as Terraform records it: `[hostname/]namespace/type` written out in
 * full and in lower case (`Example.com/Acme/TenantForm` is `example.com/acme/tenantform`, a source
 * without a host is on Terraform's registry); undefined when the text is not one.
 */
export function providerSourceAddress(source: string): string | undefined {
  const parts = source.trim().toLowerCase().split('/');
  if (parts.length < 2 || parts.length > 3) return undefined;
  const [host, namespace, type] = parts.length === 3 ? parts : [DEFAULT_REGISTRY_HOST, ...parts];
  if (!SOURCE_HOST.test(host) || !SOURCE_LABEL.test(namespace) || !SOURCE_LABEL.test(type)) return undefined;
  return `${host}/${namespace}/${type}`;
}

/** Environment variables read when the provider block leaves an argument out. */
export const PROVIDER_ENV = {
  base_url: 'TENANTFORM_BASE_URL',
  client_id: 'TENANTFORM_CLIENT_ID',
  client_secret: 'TENANTFORM_CLIENT_SECRET',
} as const;

/** Seconds that the retries of one request may take in all, when neither the block nor a flag says. */
export const RETRY_TIMEOUT_ENV = 'TENANTFORM_RETRY_TIMEOUT';
export const DEFAULT_RETRY_TIMEOUT_SECONDS = 30;

/** A ceiling of requests per second, when neither the block nor a flag sets one. */
export const REQUESTS_PER_SECOND_ENV = 'TENANTFORM_REQUESTS_PER_SECOND';

/** A ceiling of requests per second (a number, or text of one, above 0 and at most 10,000); undefined when it is none. */
export function parseRequestsPerSecond(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 && n <= 10_000 ? n : undefined;
}

/** A retry timeout in seconds (a number, or text of one, from 0 to a day); undefined when it is none. */
export function parseRetryTimeout(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 && n <= 86_400 ? n : undefined;
}

/** The provider block's arguments: one declaration for the schema, the construct and docs. */
export const PROVIDER_ATTRIBUTES = {
  base_url: attr.string({
    mode: 'optional',
    description:
      'Base address of the data center, e.g. `https://eu2-cloud.example.com`. Falls back to TENANTFORM_BASE_URL. https, or plain http to this machine only (a local stand-in such as `tenantform emulator`): the secret and tokens never travel in clear.',
  }),
  client_id: attr.string({ mode: 'optional', description: 'API client id. Falls back to TENANTFORM_CLIENT_ID.' }),
  client_secret: attr.string({
    mode: 'optional',
    sensitive: true,
    description: 'API client secret. Falls back to TENANTFORM_CLIENT_SECRET; prefer the variable, so the secret stays out of code.',
  }),
  retry_timeout: attr.number({
    mode: 'optional',
    description:
      'Seconds that the retries of one request (after a 429, a 5xx, a refused or dropped connection) may take in all. Falls back to TENANTFORM_RETRY_TIMEOUT, then 30. A request refused by the rate limit while other requests are answered keeps its place instead.',
  }),
  requests_per_second: attr.number({
    mode: 'optional',
    description:
      "A ceiling of requests per second to this data center with these credentials, shared by everything the run sends. Falls back to TENANTFORM_REQUESTS_PER_SECOND; without one, the rate is learned from the platform's 429 answers.",
  }),
} as const;
