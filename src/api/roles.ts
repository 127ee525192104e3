/**
 * GAPS "Role ids and tenant kinds": the kinds of tenant each role can be granted on. The
 * platform refuses a role on another kind of tenant (400); the planner refuses it earlier.
 */
export const ROLE_TENANT_KINDS = {
  partner_admin: ['partner', 'folder'],
  company_admin: ['customer'],
  unit_admin: ['unit'],
  readonly_admin: ['partner', 'customer', 'unit'],
  backup_user: ['customer', 'unit'],
  protection_admin: ['customer', 'unit'],
  protection_ro_admin: ['customer', 'unit'],
  restore_operator: ['customer', 'unit'],
  sync_share_admin: ['customer', 'unit'],
  sync_share_user: ['customer', 'unit'],
} as const satisfies Record<string, readonly ('partner' | 'folder' | 'customer' | 'unit')[]>;

export type RoleId = keyof typeof ROLE_TENANT_KINDS;

export const ROLE_IDS = Object.keys(ROLE_TENANT_KINDS) as [RoleId, ...RoleId[]];
