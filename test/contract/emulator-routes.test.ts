import { accountRoutes } from '../../src/emulator/accounts';
import { agentRoutes } from '../../src/emulator/agents';
import { alertRoutes } from '../../src/emulator/alerts';
import { eventRoutes } from '../../src/emulator/events';
import { Contract } from './openapi';

const contract = new Contract();
const SAMPLE_ID = '6c287abf-0f88-4e1b-b457-68edf053d3da';
const routes = [accountRoutes, agentRoutes, eventRoutes, alertRoutes].flatMap((g) => g.routes);

describe("the emulator's routes", () => {
  // Like the platform, the emulator answers only what the vendor's reference documents. Only a
  // whole segment is a parameter: `update:force` is a verb of the path.
  it.each(routes.map((r) => [`${r.method} ${r.pattern}`, r] as const))('%s is an operation of the reference', (_name, r) => {
    expect(contract.operationOf(r.method, r.pattern.replace(/\/:[a-z_]+/g, `/${SAMPLE_ID}`))).toBeDefined();
  });
});
