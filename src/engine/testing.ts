/** Test support for the engine: planned changes to compare with, and the engine in process. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator';
import { arrivalChannel, type Arrival } from '../emulator/channels';
import { resourceKind } from '../resources/registry';
import { StateStore } from '../state/state';
import { applyPlan, type ApplyResult } from './apply';
import { planStack, type PlanStackOptions } from './plan-stack';
import type { PlanResult } from '../plans/model';
import { Progress } from './progress';
import type { ProviderClients } from './clients';
import { openWorkspace, withLockedState, type Workspace } from './session';
import type { PlannedChange } from '../plans/model';
import type { Diagnostic } from '../diagnostics';

/** A planned change of the instance at `address` (tests): nothing changed or shown unless `parts` say so. */
export function changeAt(address: string, action: PlannedChange['action'], parts: Partial<PlannedChange> = {}): PlannedChange {
  const [type, name] = address.replace(/\[.*\]$/, '').split('.');
  return {
    address,
    mode: 'managed',
    type,
    name,
    action,
    before: null,
    after: null,
    requiresReplace: [],
    changed: [],
    sensitive: [],
    identifying: [],
    ...parts,
  };
}

/**
 * The engine in process, for tests, as Terraform's core is tested by `context_apply_test.go`: a
 * configuration (a Terraform JSON document), its state on a local backend in a temporary folder,
 * the emulator on port 0, and plan and apply run as the commands run them, without a process.
 * A scheduling bug reproduces here in seconds.
 */
/** A Terraform JSON document, as cdktf synthesizes it. */
export type Document = Record<string, unknown>;

export interface HarnessRunOptions extends Partial<PlanStackOptions> {
  /** Variables given as `--var name=value`. */
  readonly vars?: Readonly<Record<string, string>>;
}

export interface Applied {
  readonly planned: PlanResult;
  readonly applied: ApplyResult;
  /** The progress lines, in the order they were written. */
  readonly progress: readonly string[];
}

export interface EngineHarness {
  readonly emulator: RunningEmulator;
  /** The folder holding the configuration and its state. */
  readonly dir: string;
  /** The document of a stack whose provider points at the emulator, with these blocks added. */
  stack(blocks: Document): Document;
  plan(document: Document, opts?: HarnessRunOptions): Promise<PlanResult>;
  /** Plans, then applies the plan when it has no errors (as `apply -auto-approve`). */
  apply(document: Document, opts?: HarnessRunOptions): Promise<Applied>;
  /** The state as it is recorded now. */
  state(): Promise<StateStore>;
  /** The problems loading the document finds (plan and apply throw on them), before anything is sent. */
  problems(document: Document, opts?: HarnessRunOptions): Promise<Diagnostic[]>;
}

const STACK_FILE = 'stack.tf.json';

/** A harness started before the tests of the calling file (jest's beforeAll) and closed after them. */
export function useEngineHarness(emulatorOptions: EmulatorOptions = {}): EngineHarness {
  const held: { emulator?: RunningEmulator; dir?: string } = {};
  beforeAll(async () => {
    held.emulator = await startEmulator({ port: 0, seed: 1, ...emulatorOptions });
    held.dir = mkdtempSync(join(tmpdir(), 'tenantform-engine-'));
  });
  afterAll(async () => {
    await held.emulator?.close();
    if (held.dir) rmSync(held.dir, { recursive: true, force: true });
  });
  const emulator = () => held.emulator!;
  const dir = () => held.dir!;

  const env = (): NodeJS.ProcessEnv => ({
    TENANTFORM_BASE_URL: emulator().url,
    TENANTFORM_CLIENT_ID: emulator().clientId,
    TENANTFORM_CLIENT_SECRET: emulator().clientSecret,
  });

  const open = async (document: Document, opts: HarnessRunOptions) => {
    writeFileSync(join(dir(), STACK_FILE), JSON.stringify(document));
    const variables = Object.entries(opts.vars ?? {}).map(([name, value]) => ({ kind: 'var' as const, text: `${name}=${value}` }));
    return openWorkspace({ cwd: dir(), config: STACK_FILE, env: env(), variables });
  };

  /** Writes the document, opens the workspace and runs `work` with its state locked and a client per provider. */
  const withStack = async <T>(
    document: Document,
    opts: HarnessRunOptions,
    work: (stack: { configuration: Workspace['configuration']; state: StateStore; clients: ProviderClients; kindOf: typeof resourceKind }) => Promise<T>,
  ): Promise<T> => {
    const ws = await open(document, opts);
    if (!('configuration' in ws)) throw new Error(`The configuration does not load: ${JSON.stringify(ws.diagnostics)}`);
    return withLockedState<T>(ws, env(), 'OperationTypeApply', (state, _client, clients) =>
      work({ configuration: ws.configuration, state, clients, kindOf: resourceKind }),
    );
  };

  const planOptions = (opts: HarnessRunOptions): PlanStackOptions => ({ refresh: true, ...opts });

  return {
    get emulator() {
      return emulator();
    },
    get dir() {
      return dir();
    },
    stack: (blocks) => ({ terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } } }, provider: { tenantform: [{}] }, ...blocks }),
    plan: (document, opts = {}) => withStack(document, opts, (stack) => planStack(stack, planOptions(opts))),
    apply: (document, opts = {}) =>
      withStack(document, opts, async (stack) => {
        const planned = await planStack(stack, planOptions(opts));
        const progress: string[] = [];
        if (planned.plan.diagnostics.some((d) => d.severity === 'error')) {
          return { planned, applied: { added: 0, changed: 0, destroyed: 0, diagnostics: [] }, progress };
        }
        const applied = await applyPlan({
          ...planned,
          ...stack,
          parallelism: planOptions(opts).parallelism,
          progress: new Progress((line) => progress.push(line)),
        });
        return { planned, applied, progress };
      }),
    state: () => StateStore.open(join(dir(), 'terraform.stack.tfstate')),
    problems: async (document, opts = {}) => (await open(document, opts)).diagnostics.filter((d) => d.severity === 'error'),
  };
}

/** The requests the emulator receives while `work` runs (token requests too), in the order they arrive. */
export async function requestsDuring(work: () => Promise<unknown>): Promise<Arrival[]> {
  const seen: Arrival[] = [];
  const listen = (m: unknown) => void seen.push(m as Arrival);
  arrivalChannel.subscribe(listen);
  try {
    await work();
  } finally {
    arrivalChannel.unsubscribe(listen);
  }
  return seen;
}

/** `METHOD path` of a request, as the tests compare them. */
export const requestLine = (r: Arrival): string => `${r.method} ${r.path}`;

/**
 * The shape an MSP's estate has: one customer under Northwind per key, named `${prefix} <key>`,
 * each with an administrator whose login is `<login>-<key>` when `login` is given.
 */
export function customerEstate(harness: Pick<EngineHarness, 'stack'>, keys: readonly string[], prefix: string, login?: string): Document {
  const each = { for_each: `\${toset(${JSON.stringify(keys)})}` };
  const admins =
    login === undefined
      ? {}
      : {
          tenantform_user: {
            admin: { ...each, tenant_id: '${tenantform_tenant.customer[each.key].id}', login: `${login}-\${each.key}`, email: `\${each.key}@${login}.example` },
          },
        };
  return harness.stack({
    data: { tenantform_tenant: { northwind: { name: 'Northwind Partner' } } },
    resource: {
      tenantform_tenant: { customer: { ...each, parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: `${prefix} \${each.key}` } },
      ...admins,
    },
  });
}
