/**
 * Account management interface (`/api/2`): the routes of each area (applications and settings,
 * infrastructure components, usage report configurations, tenants and search), in `account/`.
 */
import type { InterfaceRoutes } from './router';
import { applicationRoutes } from './account/applications';
import { infrastructureRoutes } from './account/infrastructure';
import { reportRoutes } from './account/reports';
import { PREFIX } from './account/common';
import { tenantRoutes } from './account/tenants';

export const accountRoutes: InterfaceRoutes = {
  name: 'account',
  prefix: `${PREFIX}/`,
  routes: [...applicationRoutes, ...infrastructureRoutes, ...reportRoutes, ...tenantRoutes],
};
