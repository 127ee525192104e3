/**
 * A create whose answer is lost, against the emulator over real HTTP: the object it made is
 * found and adopted; when it made none, the create is sent again; an identical object
 * recorded for another address is never taken.
 */
import { PlatformClient, type ClientEvent } from '../api';
import { startEmulator } from '../emulator';
import type { State } from '../resources/declaration';
import { usageReport } from '../resources/kinds/usage-report';
import { planResource } from '../resources/plan';
import { CreateGate } from './adoption';
import { createOrAdopt } from './create-pending';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
const ADDRESS = 'tenantform_usage_report.lost';

let emu: Emulator;
let client: PlatformClient;
let recorded: State[];
/** Faults that stop once the first POST of a report has failed. */
let faultOnce: (e: ClientEvent) => void = () => undefined;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 11 });
  client = new PlatformClient({
    baseUrl: emu.url,
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    onEvent: (e) => faultOnce(e),
  });
  await client.listApplications();
});
afterAll(async () => {
  await client.close();
  await emu.close();
});
beforeEach(() => {
  recorded = [];
});

async function planned(level: string): Promise<State> {
  const config = { result_action: 'save', parameters: { tenant_id: emu.tenantId, kind: 'usage_daily', level }, schedule: { type: 'monthly' } };
  return (await planResource({ kind: usageReport, address: ADDRESS, config, prior: null })).planned!;
}

/** Applies `faults` until the first report POST fails. */
async function faultFirstPost(faults: Parameters<Emulator['setFaults']>[0]): Promise<void> {
  await emu.setFaults(faults);
  faultOnce = (e) => {
    if (e.method === 'POST' && e.endpoint === '/api/2/reports' && e.status === undefined) {
      void emu.setFaults({ drop_rate: 0, lost_answer_rate: 0 });
      faultOnce = () => undefined;
    }
  };
}

async function reportsLike(p: State): Promise<string[]> {
  const ids = await client.listTenantReports(emu.tenantId);
  const out: string[] = [];
  for (const id of ids) {
    const r = await client.getReport(id);
    if (r.parameters.level === (p.parameters as State).level && r.parameters.kind === 'usage_daily') out.push(id);
  }
  return out;
}

function request(p: State, held: ReadonlySet<string> = new Set()) {
  return createOrAdopt({
    kind: usageReport,
    address: ADDRESS,
    ctx: { client },
    planned: p,
    pending: p,
    gate: new CreateGate(),
    held: () => held,
    record: async (value) => {
      recorded.push(value);
    },
  });
}

it('adopts the object a create made when its answer was lost', async () => {
  const p = await planned('itself');
  await faultFirstPost({ lost_answer_rate: 1 });
  const r = await request(p);
  expect(r.diagnostics).toEqual([]);
  expect(r.adopted).toBe(true);
  const ids = await reportsLike(p);
  expect(ids).toHaveLength(1);
  expect(r.value).toMatchObject({ id: ids[0] });
  expect(recorded).toEqual([r.value]);
});

it('creates again when the lost request had made nothing', async () => {
  const p = await planned('direct_partners');
  await faultFirstPost({ drop_rate: 1 });
  const r = await request(p);
  expect(r.diagnostics).toEqual([]);
  expect(r.adopted).toBeUndefined();
  const ids = await reportsLike(p);
  expect(ids).toHaveLength(1);
  expect(r.value).toMatchObject({ id: ids[0] });
});

it('never takes an identical object recorded for another address', async () => {
  const p = await planned('all_customers');
  const twin = await client.createReport({
    result_action: 'save',
    recipients: [],
    parameters: { tenant_id: emu.tenantId, kind: 'usage_daily', level: 'all_customers' },
    schedule: { type: 'monthly', enabled: true },
  });
  await faultFirstPost({ lost_answer_rate: 1 });
  const r = await request(p, new Set([twin.id]));
  expect(r.diagnostics).toEqual([]);
  expect(r.adopted).toBe(true);
  expect(r.value!.id).not.toBe(twin.id);
  expect(await reportsLike(p)).toHaveLength(2);
});
