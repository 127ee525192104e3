/**
 * Account management interface (`/api/2`): the routes of each area (applications and settings,
 * infrastructure components, usage report configurations, tenants and search, tenant lifecycle,
 * offering items, users and roles, API clients), in `account/`.
 */
import type { InterfaceRoutes } from './router';
import { applicationRoutes } from './account/applications';
import { infrastructureRoutes } from './account/infrastructure';
import { reportRoutes } from './account/reports';
import { PREFIX } from './account/common';
import { tenantRoutes } from './account/tenants';
import { tenantReadRoutes } from './account/tenant-reads';
import { editionRoutes } from './account/editions';
import { tenantLifecycleRoutes } from './account/tenant-lifecycle';
import { offeringItemRoutes } from './account/offering-items';
import { userRoutes } from './account/users';
import { clientRoutes } from './account/clients';

export const accountRoutes: InterfaceRoutes = {
  name: 'account',
  prefix: `${PREFIX}/`,
  routes: [
    ...applicationRoutes,
    ...infrastructureRoutes,
    ...reportRoutes,
    ...tenantRoutes,
    ...tenantReadRoutes,
    ...editionRoutes,
    // After the fixed paths of tenantRoutes, so that `/tenants/:id` never shadows them.
    ...offeringItemRoutes,
    ...tenantLifecycleRoutes,
    ...userRoutes,
    ...clientRoutes,
  ],
};
