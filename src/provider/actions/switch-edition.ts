import { attr, oneOf } from '../../resources/attributes';
import { count, defineAction, step } from './declaration';

/** platform-interface: a service's edition (the editions the platform offers). */
const EDITIONS = ['standard', 'advanced', 'per_workload', 'pck_per_gigabyte', 'pck_per_workload'] as const;

export default defineAction({
  type: 'tenantform_switch_edition',
  description:
    "Switches a customer's service (Cyber Protection or File Sync & Share) to another edition: each offering item of the service that is on moves to the item of the same usage in the target edition, and an item the target edition has no counterpart of is switched off.",
  operation: '`PUT /api/2/tenants/{tenant_id}/edition` with `{target_edition, application_id}` (the vendor reference and guide; docs/platform-interface.md)',
  attributes: {
    tenant_id: attr.uuid({ mode: 'required', description: 'The tenant whose service changes edition.' }),
    application_id: attr.uuid({
      mode: 'required',
      description: 'The service: the id of the Cyber Protection (`backup`) or File Sync & Share (`files_cloud`) application.',
    }),
    target_edition: attr.string({
      mode: 'required',
      check: oneOf(EDITIONS),
      expects: EDITIONS.map((e) => `\`${e}\``).join(', '),
      description: 'The edition to switch to.',
    }),
  },
  example: {
    name: 'acme_advanced',
    config: {
      tenant_id: '${tenantform_tenant.acme.id}',
      application_id: '${data.tenantform_application.backup.id}',
      target_edition: 'advanced',
    },
  },
  async *invoke(config, { client }) {
    const tenant = config.tenant_id as string;
    const application = config.application_id as string;
    const edition = config.target_edition as string;
    yield `Switching application ${application} of tenant ${tenant} to the ${edition} edition`;
    const answer = await step(`switching tenant ${tenant} to the ${edition} edition`, () =>
      client.switchEdition(tenant, { application_id: application, target_edition: edition }),
    );
    const on = (answer.items ?? []).filter((i) => i.status === 1);
    yield `Tenant ${tenant} now has ${count(on.filter((i) => i.edition === edition).length, 'offering item')} of the ${edition} edition on`;
  },
});
