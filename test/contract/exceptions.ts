/**
 * The exchanges the contract tests accept although the vendor's reference does not allow them:
 * each a choice where the reference is silent or contradicts the seed documents, with its reason
 * (a GAPS.md row, or the seed document that wins). `TENANTFORM_CONTRACT_REPORT=FILE npx jest`
 * lists what matches each entry.
 */
import type { Violation } from './openapi';

export interface ContractException {
  /** The reference operation, `METHOD /prefix/template`; for an unknown operation, a pattern of the request. */
  operation: string | RegExp;
  code: Violation['code'];
  /** The member, with list positions written `[]`; a trailing `*` matches any member below. */
  path?: string;
  /** The status, for an undocumented one. */
  status?: number;
  reason: string;
}

const GAPS_OURS = 'GAPS "Statuses marked ours": the reference lists no such status for this operation; the emulator keeps the choice';

export const CHOICES: readonly ContractException[] = [
  ...['GET /api/alert_manager/v1/alerts', 'GET /api/alert_manager/v1/types'].map((operation): ContractException => ({
    operation,
    code: 'undocumented_status',
    status: 400,
    reason:
      'ours, in docs/platform-interface.md "alert filters": a filter the emulator does not implement, or a malformed one, is refused with 400, never ignored; the reference lists no 400',
  })),
  {
    operation: 'GET /api/2/tenants/{tenant_id}/children',
    code: 'undocumented_status',
    status: 400,
    reason:
      'ours, in docs/platform-interface.md "tenant children and usages": a parameter the emulator does not implement (order, after) is refused with 400, never ignored',
  },
  {
    operation: 'GET /api/alert_manager/v1/alerts/{id}',
    code: 'undocumented_status',
    status: 404,
    reason:
      'ours, in docs/platform-interface.md "alert filters": an alert that is not there, or not in the caller\'s subtree, answers 404; the reference lists only 200',
  },
  { operation: 'DELETE /api/2/reports/{report_id}', code: 'undocumented_status', status: 409, reason: `${GAPS_OURS} (409 stale report delete)` },
  {
    operation: 'POST /api/2/applications/{application_id}/bindings/tenants/{tenant_id}',
    code: 'undocumented_status',
    status: 409,
    reason: `${GAPS_OURS} (409 binding under a parent without the application)`,
  },
  {
    operation: 'DELETE /api/2/applications/{application_id}/bindings/tenants/{tenant_id}',
    code: 'undocumented_status',
    status: 409,
    reason: 'ours, in docs/platform-interface.md "binding": a child that still has the application answers 409; the reference lists no 409 for the operation',
  },
  {
    operation: 'PUT /api/2/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}',
    code: 'undocumented_status',
    status: 409,
    reason: `${GAPS_OURS} (409 overriding a setting locked above)`,
  },
  {
    operation: 'PUT /api/2/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}',
    code: 'undocumented_status',
    status: 400,
    reason: `${GAPS_OURS} (400 a value the setting does not take)`,
  },
  {
    operation: 'PUT /api/2/reports/{report_id}',
    code: 'undocumented_status',
    status: 400,
    reason: `${GAPS_OURS} (400 a change a monthly report cannot take in place)`,
  },
  {
    operation: 'POST /api/event_manager/v1/subscriptions',
    code: 'undocumented_status',
    status: 400,
    reason: 'GAPS "Event manager": a malformed subscription is refused with 400; the reference lists no 400 for the operation',
  },
  {
    operation: 'POST /api/event_manager/v1/subscriptions',
    code: 'undocumented_status',
    status: 415,
    reason: 'GAPS "Event manager": a body that is not JSON is refused with 415, as every JSON operation of the platform',
  },
  {
    operation: 'PUT /api/agent_manager/v2/agent_update_settings',
    code: 'undocumented_status',
    status: 415,
    reason: 'a body that is not JSON is refused with 415, as every JSON operation of the platform',
  },
  {
    operation: 'GET /api/event_manager/v1/subscriptions/offset',
    code: 'undocumented_status',
    status: 404,
    reason:
      'GAPS "Reading a subscription back": the emulator answers 404 for an unknown subscription; the reference lists 200, 401, 403, 500 only, so tenantform says in the plan and docs that existence is not proven',
  },
  {
    operation: 'POST /api/2/tenants',
    code: 'undocumented_status',
    status: 400,
    reason: 'GAPS "Create a tenant": a body the closed schema allows but the platform refuses (a kind the parent cannot hold) answers 400',
  },
  {
    operation: 'POST /api/2/tenants',
    code: 'undocumented_status',
    status: 404,
    reason: 'GAPS "Create a tenant": a parent that does not exist, or that the caller cannot see, answers 404 as every read of it does',
  },
  {
    operation: 'POST /api/2/tenants',
    code: 'undocumented_status',
    status: 409,
    reason: 'GAPS "Tenant name taken": a sibling with the same name answers 409 (code 1004)',
  },
  {
    operation: 'PUT /api/2/tenants/{tenant_id}',
    code: 'undocumented_status',
    status: 400,
    reason: 'GAPS "Update a tenant": a change the platform refuses beyond the schema (a move below itself) answers 400',
  },
  {
    operation: 'DELETE /api/2/tenants/{tenant_id}',
    code: 'undocumented_status',
    status: 409,
    reason: 'GAPS "Delete a tenant": an enabled tenant, or a stale version, answers 409 (code 1006, 1001)',
  },
  { operation: 'POST /api/2/users', code: 'undocumented_status', status: 409, reason: 'GAPS "Create a user": a login taken answers 409' },
  { operation: 'DELETE /api/2/users/{user_id}', code: 'undocumented_status', status: 409, reason: 'GAPS "Delete a user": an enabled user answers 409' },
  {
    operation: 'PUT /api/2/tenants/{tenant_id}/pricing',
    code: 'undocumented_status',
    status: 409,
    reason: 'GAPS "Pricing mode": production back to trial, or a stale version, answers 409',
  },
  {
    operation: 'POST /api/alert_manager/v1/alerts',
    code: 'invalid_request_body',
    path: 'body*',
    reason:
      'GAPS "Custom alert": the reference\'s body lists the vendor\'s own alert types only; an alert of a registered custom type is {type, tenantID, severity, details}',
  },
  {
    operation: 'GET /api/alert_manager/v1/alerts',
    code: 'invalid_parameter',
    path: 'query.severity',
    reason: 'spec 03 "Alert filters" (which wins over the reference): `severity` takes the operators eq, or(a,b), lt, gt, le, ge',
  },
  {
    operation: 'GET /api/alert_manager/v1/alerts',
    code: 'unknown_parameter',
    path: 'query.after',
    reason:
      'spec 03: GET /alerts answers paging.cursors, whose parameter neither document names; docs/platform-interface.md "alerts paging" takes `after` as every other cursor of the platform',
  },
  {
    operation: 'POST /api/2/reports',
    code: 'invalid_response_body',
    path: 'response.parameters.formats[]',
    reason:
      'the reference contradicts itself: `reportPost` takes the format json_v2_0 (GAPS "Report enumerations" too), its `report` answer lists no json_v2_0; the platform answers the format it stored',
  },
  {
    operation: 'GET /api/2/reports/{report_id}',
    code: 'invalid_response_body',
    path: 'response.parameters.formats[]',
    reason: 'as for POST /api/2/reports: json_v2_0 is taken by reportPost',
  },
  {
    operation: 'PUT /api/2/reports/{report_id}',
    code: 'invalid_response_body',
    path: 'response.parameters.formats[]',
    reason: 'as for POST /api/2/reports: json_v2_0 is taken by reportPost',
  },
  {
    operation: 'PUT /api/2/users/{user_id}/access_policies',
    code: 'invalid_request_body',
    path: 'body.*',
    reason:
      'GAPS "User roles (access policies) body": the official samples send the reduced body ({items: [{id, issuer_id, trustee_id, trustee_type, tenant_id, role_id, version}]}) without `timestamp` or the items\' times',
  },
];

function pathMatches(pattern: string | undefined, path: string): boolean {
  if (pattern === undefined) return true;
  const normalized = path.replace(/\[\d+\]/g, '[]');
  return pattern.endsWith('*') ? normalized.startsWith(pattern.slice(0, -1)) : normalized === pattern;
}

export function exceptionFor(v: Violation, status: number): ContractException | undefined {
  const matches = (e: ContractException) =>
    (typeof e.operation === 'string' ? e.operation === v.operation : e.operation.test(v.operation)) &&
    e.code === v.code &&
    pathMatches(e.path, v.path) &&
    (e.status === undefined || e.status === status);
  return CHOICES.find(matches);
}
