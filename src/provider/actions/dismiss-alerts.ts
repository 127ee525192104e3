import { z } from 'zod';
import { attr } from '../../resources/attributes';
import { count, defineAction, step, strings } from './declaration';

/** Spec 03: alert ids are uuids, matched case-insensitively. */
const ALERT_ID = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/);

export default defineAction({
  type: 'tenantform_dismiss_alerts',
  description:
    'Dismisses the alerts named by id: they leave the active alerts and are listed only among dismissed ones. Dismissing an alert that is already dismissed changes nothing.',
  operation: '`DELETE /api/alert_manager/v1/alerts?id=...` (spec 03; spec/GAPS.md: dismiss by `id`)',
  attributes: {
    alert_ids: attr.list(ALERT_ID, {
      mode: 'required',
      minItems: 1,
      maxItems: 100,
      unique: true,
      expects: 'alert ids (uuids), 1 to 100 of them, none twice',
      description: 'The alerts to dismiss.',
    }),
  },
  example: { name: 'after_maintenance', config: { alert_ids: ['f7de90c3-6fa9-49d1-bfd4-c26aa7294146'] } },
  async *invoke(config, { client }) {
    const alerts = strings(config.alert_ids);
    yield `Dismissing ${count(alerts.length, 'alert')}`;
    await step(`dismissing ${count(alerts.length, 'alert')}`, () => client.dismissAlertsById(alerts));
    yield `Dismissed ${count(alerts.length, 'alert')}`;
  },
});
