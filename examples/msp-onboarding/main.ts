/**
 * An MSP onboarding its partner's customers. A new customer, Contoso, is created under the
 * partner with backup through offering items (a storage quota), its administrator with the
 * company_admin role, and an API client for its monitoring tool (the secret is a sensitive
 * output). The existing customers get backup, the partner a locked backup window, plus a
 * disaster-recovery site, weekend agent updates, a monthly usage report and a feed of tenant events.
 *
 *   npx cdktf synth                 # writes cdktf.out/stacks/msp-onboarding/cdk.tf.json
 *   npx tenantform plan             # or: npx cdktf deploy
 */
import { App, TerraformOutput, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import {
  AgentUpdateSettings,
  ApiClient,
  ApplicationBinding,
  DataTenantformApplication,
  DataTenantformTenant,
  EventSubscription,
  InfraComponent,
  OfferingItems,
  Tenant,
  TenantformProvider,
  TenantSetting,
  UsageReport,
  User,
  UserRoles,
} from '../../src';

const CUSTOMERS = {
  acme: 'Acme Manufacturing',
  globex: 'Globex Retail',
  initech: 'Initech Finance',
} as const;

/** The billing contact who receives the monthly usage report. */
const BILLING_CONTACT_USER_ID = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';

class MspOnboarding extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Credentials come from TENANTFORM_BASE_URL, TENANTFORM_CLIENT_ID, TENANTFORM_CLIENT_SECRET.
    new TenantformProvider(this, 'tenantform');

    const backup = new DataTenantformApplication(this, 'backup', { type: 'backup' });
    const partner = new DataTenantformTenant(this, 'northwind', { name: 'Northwind Partner' });

    // The new customer: its tenant, backup with a storage quota, its administrator, its monitoring tool.
    const contoso = new Tenant(this, 'contoso', {
      parentId: partner.id,
      kind: 'customer',
      name: 'Contoso',
      pricingMode: 'production',
      contact: { email: 'it@contoso.example', firstName: 'Dana', lastName: 'Reyes', types: ['primary', 'technical'] },
    });
    new OfferingItems(this, 'contoso_backup', {
      tenantId: contoso.id,
      applicationId: backup.id,
      // Quotas are in the platform's measurement units: storage in bytes, so 1 TiB is
      // 1099511627776 (1024 would be 1024 bytes), with 100 GiB (107374182400) of overage;
      // workstations by count. null would mean unlimited. Without `infra_id`, the storage item
      // is for the one storage component the partner offers (name it where there are several).
      items: [
        { name: 'storage', quota: { value: 1099511627776, overage: 107374182400 } },
        { name: 'workstations', quota: { value: 50 } },
      ],
    });
    const contosoAdmin = new User(this, 'contoso_admin', {
      tenantId: contoso.id,
      login: 'contoso-admin',
      email: 'admin@contoso.example',
      firstName: 'Dana',
      lastName: 'Reyes',
      notifications: ['quota', 'backup_error'],
    });
    new UserRoles(this, 'contoso_admin_roles', {
      userId: contosoAdmin.id,
      roles: [{ tenantId: contoso.id, roleId: 'company_admin' }],
    });
    const monitoring = new ApiClient(this, 'contoso_monitoring', {
      tenantId: contoso.id,
      data: JSON.stringify({ purpose: 'monitoring' }),
    });
    new TerraformOutput(this, 'contoso_monitoring_client_id', { value: monitoring.id });
    new TerraformOutput(this, 'contoso_monitoring_secret', { value: monitoring.clientSecret, sensitive: true });

    const bindings = Object.entries(CUSTOMERS).map(([key, name]) => {
      const customer = new DataTenantformTenant(this, key, { name, parentId: partner.id });
      return new ApplicationBinding(this, `${key}_backup`, { applicationId: backup.id, tenantId: customer.id });
    });

    // Customers of the partner may not move the backup window.
    new TenantSetting(this, 'northwind_backup_window', {
      applicationId: backup.id,
      tenantId: partner.id,
      name: 'backup_window',
      value: JSON.stringify({ start: '22:00', end: '04:00' }),
      lock: true,
    });

    // Referencing the binding orders the setting after backup is on for Acme.
    const [acmeBackup] = bindings;
    new TenantSetting(this, 'acme_retention', {
      applicationId: acmeBackup.applicationId,
      tenantId: acmeBackup.tenantId,
      name: 'retention_days',
      value: JSON.stringify(90),
    });

    new InfraComponent(this, 'northwind_dr_site', {
      ownerTenantId: partner.id,
      name: 'Northwind DR site',
      url: 'https://dr.northwind.example',
      capabilities: ['backup', 'disaster_recovery'],
      backendType: 'acronis',
    });

    new AgentUpdateSettings(this, 'acme_agent_updates', {
      tenantId: acmeBackup.tenantId,
      updateChannel: 'STABLE',
      automatic: true,
      maintenanceWindow: { timeFrom: '22:00:00', timeTo: '06:00:00', daysOfWeek: ['SATURDAY', 'SUNDAY'] },
    });

    new UsageReport(this, 'northwind_monthly_usage', {
      resultAction: 'send',
      recipients: [BILLING_CONTACT_USER_ID],
      parameters: { tenantId: partner.id, kind: 'usage_summary', level: 'all_customers', formats: ['csv', 'json_v2_0'] },
      schedule: { type: 'monthly', enabled: true },
    });

    new EventSubscription(this, 'northwind_tenant_events', {
      topicId: 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0',
      types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'],
      tenantId: partner.id,
      tenantDepth: 'ALL',
      cel: "event.data.kind == 'customer'",
    });
  }
}

const app = new App();
new MspOnboarding(app, 'msp-onboarding');
app.synth();
