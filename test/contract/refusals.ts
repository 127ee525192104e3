/**
 * For a test that drives the platform's own refusal of a bad request through tenantform's client
 * (to see how tenantform reports it): within that test, requests the reference does not allow are
 * accepted when the platform refused them (a 4xx answer). Reset after each test.
 */
let allowed = false;

export function allowRefusedRequests(): void {
  allowed = true;
}

export function refusedRequestsAllowed(): boolean {
  return allowed;
}

export function resetRefusals(): void {
  allowed = false;
}
