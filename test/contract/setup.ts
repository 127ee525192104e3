/**
 * Runs in every test file: each exchange between tenantform and an emulator of that file is
 * checked against the vendor's references, and a violation fails the test that caused it, naming
 * the operation and the member. Requests are checked when tenantform sent them (tests also send
 * malformed requests on purpose); answers whenever the request was valid and the answer was not
 * an injected fault. A test that drives the platform's refusal of a bad request on purpose says so
 * (`allowRefusedRequests`). `TENANTFORM_CONTRACT_REPORT=FILE` also appends every violation, excepted ones
 * included, to FILE as JSON lines. A file whose tests start no emulator pays for none of this: the
 * references are read at the first exchange.
 */
import { appendFileSync } from 'node:fs';
import { exchangeChannel, type Exchange } from '../../src/emulator/channels';
import { exceptionFor } from './exceptions';
import type { Contract, Violation } from './openapi';
import { refusedRequestsAllowed, resetRefusals } from './refusals';

let loaded: Contract | undefined;
/** The references, read when the file's first exchange is checked. */
function contract(): Contract {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= new (require('./openapi') as typeof import('./openapi')).Contract();
  return loaded;
}
const pending = new Map<string, Violation>();
const report = process.env.TENANTFORM_CONTRACT_REPORT;

function observe(message: unknown): void {
  const exchange = message as Exchange;
  if (exchange.injected) return;
  const fromTenantform = String(exchange.headers['user-agent'] ?? '').startsWith('tenantform/');
  const checked = { ...exchange, contentType: exchange.headers['content-type'] };
  const request = contract().checkRequest(checked);
  const refused = exchange.status >= 400 && exchange.status < 500 && refusedRequestsAllowed();
  const violations = request.length > 0 ? (fromTenantform && !refused ? request : []) : contract().checkResponse(checked);
  for (const v of violations) {
    const exception = exceptionFor(v, exchange.status);
    if (report !== undefined)
      appendFileSync(
        report,
        `${JSON.stringify({ ...v, status: exchange.status, excepted: exception !== undefined, test: expect.getState().currentTestName ?? expect.getState().testPath })}\n`,
      );
    if (exception === undefined) pending.set(`${v.operation} ${v.code} ${v.path} ${v.message}`, v);
  }
}

function failOnViolations(): void {
  resetRefusals();
  if (pending.size === 0) return;
  const lines = [...pending.values()].map((v) => `  ${v.operation}: ${v.code} at ${v.path}: ${v.message}`);
  pending.clear();
  throw new Error(`The exchanges of this test break the platform's published contract (test/contract/vendor):\n${lines.join('\n')}`);
}

beforeAll(() => exchangeChannel.subscribe(observe));
afterEach(failOnViolations);
afterAll(() => {
  exchangeChannel.unsubscribe(observe);
  failOnViolations();
});
