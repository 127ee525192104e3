/**
 * The world as an MSP's account meets the platform: its API client sits on its partner tenant
 * (Northwind Partner), not on the root; its customers hold users made in the console (with the
 * platform's default notifications, activated) and the alerts the platform raised for them.
 */
import { DEFAULT_NOTIFICATIONS } from './account/users';
import type { Store } from './store';
import { ALL_SCOPES } from './store';
import type { Alert, AlertType, ApiClient, User } from './world';

/** The partner whose API client the MSP's account uses. */
export const MSP_PARTNER = 'Northwind Partner';

/** A backup failure, as the platform raises it for a customer's workload. */
export const BACKUP_FAILED_TYPE = 'cti.a.p.am.alert.v1.0~a.p.backup.failed.v1.0';

/** When the console made these objects: fixed, so that a seed always gives the same world. */
const CONSOLE_TIME = '2025-06-02T08:30:00.000Z';

/** Users an administrator made in the console, one per customer that has them. */
const CONSOLE_USERS: ReadonlyArray<{ tenant: string; login: string; email: string; firstname: string }> = [
  { tenant: 'Acme Manufacturing', login: 'acme-it', email: 'it@acme.example', firstname: 'Robin' },
  { tenant: 'Globex Retail', login: 'globex-ops', email: 'ops@globex.example', firstname: 'Sam' },
];

/**
 * Furnishes a freshly seeded world as an MSP's account: a partner API client (every scope but the
 * root's) that becomes the primary client, console-made users and alerts. Idempotent: a world
 * loaded from a data file that has it already is left as it is.
 */
export function furnishMspAccount(store: Store): void {
  const w = store.world;
  const partner = w.tenants.find((t) => t.name === MSP_PARTNER);
  if (partner === undefined) throw new Error(`The seeded world has no ${MSP_PARTNER}`);
  if (store.primaryClient.tenant_id === partner.id) return;
  const client: ApiClient = {
    client_id: store.newId(),
    client_secret: store.newSecret(),
    tenant_id: partner.id,
    scopes: ALL_SCOPES.filter((s) => !s.endsWith('::root_admin')),
    status: 'enabled',
  };
  w.clients.push(client);
  w.primaryClientId = client.client_id;

  for (const u of CONSOLE_USERS) {
    const tenant = w.tenants.find((t) => t.name === u.tenant);
    if (tenant === undefined) continue;
    const user: User = {
      id: store.newId(),
      version: store.nextVersion(),
      tenant_id: tenant.id,
      personal_tenant_id: store.newId(),
      login: u.login,
      contact: { email: u.email, firstname: u.firstname },
      enabled: true,
      activated: true,
      language: 'en',
      notifications: [...DEFAULT_NOTIFICATIONS],
      business_types: [],
      created_at: CONSOLE_TIME,
      updated_at: CONSOLE_TIME,
      deleted_at: null,
    };
    w.users.push(user);
  }

  const type: AlertType = {
    id: BACKUP_FAILED_TYPE,
    severity: 'error',
    enabled: true,
    category: 'Backup',
    contextKeys: ['resourceId'],
    searchableDetails: ['resourceName'],
    supportedOS: ['windows', 'linux'],
  };
  w.alertTypes[type.id] = type;
  for (const name of ['Acme Manufacturing', 'Globex Retail']) {
    const tenant = w.tenants.find((t) => t.name === name);
    if (tenant === undefined) continue;
    const alert: Alert = {
      id: store.newId(),
      type: type.id,
      category: type.category,
      severity: 'error',
      tenant: { id: tenant.id, locator: `/${w.rootTenantId}/${partner.id}/${tenant.id}/` },
      createdAt: CONSOLE_TIME,
      updatedAt: CONSOLE_TIME,
      receivedAt: CONSOLE_TIME,
      details: { resourceName: `${name} file server`, planName: 'Daily backup' },
    };
    w.alerts.push(alert);
  }
  store.save();
}
