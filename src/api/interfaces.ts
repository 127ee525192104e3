/**
 * The platform's interfaces tenantform speaks, in one place: where each is served (the client's
 * areas call it there, the emulator serves it there, a failed call's error body is read by it)
 * and the vendor's reference that the contract checks hold its exchanges to
 * (`test/contract/vendor/`). A new interface starts here (CONTRIBUTING.md says what follows).
 */
export const SPOKEN_INTERFACES = {
  account_management: { prefix: '/api/2', reference: 'account-management-v2.openapi.json' },
  agent_manager: { prefix: '/api/agent_manager/v2', reference: 'agents-v2.openapi.json' },
  event_manager: { prefix: '/api/event_manager/v1', reference: 'events-v1.openapi.json' },
  alert_manager: { prefix: '/api/alert_manager/v1', reference: 'alerts-v1.openapi.json' },
} as const;

export type SpokenInterface = keyof typeof SPOKEN_INTERFACES;
