import { attr, uuid, UUID_EXPECTS } from '../../resources/attributes';
import { defineAction, step, strings } from './declaration';

export default defineAction({
  type: 'tenantform_send_activation_email',
  description:
    'Sends the activation email again to each user named, one after another: the user sets a password from the link in it. Use it for users who lost or never received the first one.',
  operation: '`POST /api/2/users/{user_id}/send-activation-email` (the vendor reference; spec/GAPS.md, activation)',
  attributes: {
    user_ids: attr.list(uuid, {
      mode: 'required',
      minItems: 1,
      maxItems: 100,
      unique: true,
      expects: `${UUID_EXPECTS} values, 1 to 100 of them, none twice`,
      description: 'The users to send the email to, in this order.',
    }),
  },
  example: { name: 'welcome_again', config: { user_ids: ['${tenantform_user.jane.id}'] } },
  async *invoke(config, { client, signal }) {
    const users = strings(config.user_ids);
    for (const [i, user] of users.entries()) {
      if (signal.aborted) return;
      await step(`sending the activation email to user ${user}`, () => client.sendActivationEmail(user));
      yield `Sent the activation email to user ${user} (${i + 1} of ${users.length})`;
    }
  },
});
