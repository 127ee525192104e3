/**
 * The platform client: typed methods over the account management, agent manager, event
 * manager and alert manager interfaces, with token handling, retries and checked responses.
 *
 * Methods take camelCase arguments and return the platform's snake_case objects as it sent them
 * (typed by the zod schemas in `schemas.ts`). The machinery lives in `core.ts`; the methods of
 * each interface and area in `areas/`, one file each, gathered here onto one class.
 */
import { agentsMethods } from './areas/agents';
import { alertsMethods } from './areas/alerts';
import { applicationsMethods } from './areas/applications';
import { eventsMethods } from './areas/events';
import { infrastructureMethods } from './areas/infrastructure';
import { reportsMethods } from './areas/reports';
import { tenantsMethods } from './areas/tenants';
import { offeringItemsMethods } from './areas/offering-items';
import { usersMethods } from './areas/users';
import { clientsMethods } from './areas/clients';
import { PlatformCore } from './core';

export { collect, type ClientEvent, type PlatformClientOptions } from './core';
export type { AgentUpdateSettingsItem, ListAgentsOptions } from './areas/agents';
export type { AlertBody, AlertTypeBody, ListAlertsOptions } from './areas/alerts';
export type { SettingData } from './areas/applications';
export type { SubscriptionBody } from './areas/events';
export { INFRA_UUIDS_PER_REQUEST, type InfraCreate, type InfraUpdate } from './areas/infrastructure';
export type { ReportBody, ReportUpdate } from './areas/reports';
export { TENANT_UUIDS_PER_REQUEST, type GetTenantsOptions, type TenantCreate, type TenantUpdate } from './areas/tenants';
export type { OfferingItemWrite } from './areas/offering-items';
export type { AccessPolicyWrite, UserCreate, UserUpdate } from './areas/users';
export type { ApiClientCreate, ApiClientUpdate } from './areas/clients';

const areas = [
  applicationsMethods,
  infrastructureMethods,
  reportsMethods,
  agentsMethods,
  eventsMethods,
  alertsMethods,
  tenantsMethods,
  offeringItemsMethods,
  usersMethods,
  clientsMethods,
] as const;

type AreaMethods = typeof applicationsMethods &
  typeof infrastructureMethods &
  typeof reportsMethods &
  typeof agentsMethods &
  typeof eventsMethods &
  typeof alertsMethods &
  typeof tenantsMethods &
  typeof offeringItemsMethods &
  typeof usersMethods &
  typeof clientsMethods;

// The area methods are installed on the prototype below; the merged interface gives the class their types.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class PlatformClient extends PlatformCore {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface PlatformClient extends AreaMethods {}

for (const area of areas) {
  for (const [name, method] of Object.entries(area)) {
    Object.defineProperty(PlatformClient.prototype, name, { value: method, writable: true, configurable: true });
  }
}
