/** Every action the provider serves, by type name. */
import dismissAlerts from './dismiss-alerts';
import forceAgentUpdate from './force-agent-update';
import sendActivationEmail from './send-activation-email';
import switchEdition from './switch-edition';
import type { ActionDeclaration } from './declaration';

export const ACTIONS: readonly ActionDeclaration[] = [switchEdition, sendActivationEmail, forceAgentUpdate, dismissAlerts];

export function actionNamed(type: string | undefined): ActionDeclaration | undefined {
  return ACTIONS.find((a) => a.type === type);
}
