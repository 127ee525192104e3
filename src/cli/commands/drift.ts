import type { CommandModule } from 'yargs';
import { ProviderClients } from '../../engine/clients';
import { hasErrors } from '../../diagnostics';
import { syncDriftAlert } from '../../drift/alert';
import { driftByDataCenter, type DataCenterDrift } from '../../drift/data-centers';
import { detectDrift, isDrifted, summarizeDrift } from '../../drift/detect';
import type { DriftReport } from '../../drift/model';
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from '../views/drift-report';
import { IGNORE_FILE, IgnoreRules, withIgnoredChanges } from '../../drift/ignore';
import { stackRootTenant } from '../../drift/root-tenant';
import { findUnmanaged, mergeUnmanaged } from '../../drift/unmanaged';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeHolder } from '../../backends/lock-info';
import { carryOutMoves } from '../../engine/moves';
import { platformClient, withUnlockedState } from '../../engine/session';
import { resourceKind } from '../../resources/registry';
import { checkPlatform } from '../../engine/preflight';
import { withReadProgress } from '../read-progress';
import { redactSecrets } from '../redact';
import { openSynthesizedWorkspace, printDiagnostics, stateFlags, SYNTH_OPTION, variableFlags, type StateArgs, type VariableArgs } from './shared';

interface DriftArgs extends StateArgs, VariableArgs {
  parallelism?: number;
  format: 'text' | 'markdown' | 'json';
  alert: boolean;
  color: boolean;
  synth: boolean;
  'ignore-unmanaged': boolean;
  'fail-on-unmanaged': boolean;
  'summary-file'?: string;
  setting?: string[];
  target?: string[];
}

export const driftCommand: CommandModule<object, DriftArgs> = {
  command: 'drift',
  describe: 'Report what changed on the platform since the last apply (reads only; exit 0 in sync, 2 drift, 1 error)',
  builder: (y) =>
    variableFlags(stateFlags(y))
      .usage(
        'tenantform drift [options]\n\n' +
          'Reads every object recorded in the state and compares it with the values recorded at the last apply.\n' +
          'Each resource is in sync, changed outside tenantform (each attribute with its value in the state and\n' +
          'on the platform), or deleted outside tenantform. Objects with a version field whose version has not\n' +
          'moved are in sync without comparing further. Attributes in lifecycle.ignore_changes never count.\n' +
          'Event subscriptions cannot be read back: only their existence is checked.\n' +
          'Objects whose configuration differs from the last apply are listed too, but are not drift:\n' +
          '`tenantform plan` shows them.\n\n' +
          'Nothing is changed: not the platform, not the state. The state lock is not taken (the state file is\n' +
          'only ever replaced whole, so it is read consistently), so a drift check never blocks an apply; a\n' +
          'warning says when an operation held the lock meanwhile.\n\n' +
          'Exit codes: 0 in sync, 2 drift found (or, with --fail-on-unmanaged, unmanaged objects), 1 error (also when the\n' +
          'platform cannot be reached).',
      )
      .option('parallelism', {
        type: 'number',
        describe: 'How many objects are read at once, at most (default: 10 at first, more while the platform keeps up, fewer when it refuses or slows)',
      })
      .option('target', { type: 'string', array: true, describe: 'Report only this address (a block: its instances; a module: what is in it); repeatable' })
      // Pipelines pass terraform's lock flags everywhere; a drift check takes no lock, so it never waits for one.
      .option('lock', { type: 'boolean', default: true, describe: 'Accepted as terraform takes it: drift reads the state without its lock' })
      .option('lock-timeout', { type: 'string', describe: 'Accepted as terraform takes it: drift never waits for the lock' })
      .option('format', { choices: ['text', 'markdown', 'json'] as const, default: 'text' as const, describe: 'Report format' })
      .option('synth', SYNTH_OPTION)
      .option('color', { type: 'boolean', default: true, describe: 'Accepted for scripts that pass -no-color everywhere (the report has no colour)' })
      .option('ignore-unmanaged', {
        type: 'boolean',
        default: false,
        describe: `Do not look for unmanaged objects (on the platform in the managed tenants, declared by no configuration); patterns in ${IGNORE_FILE} leave out some (its syntax: docs/drift.md)`,
      })
      .option('fail-on-unmanaged', {
        type: 'boolean',
        default: false,
        describe: 'Exit 2, as on drift, when unmanaged objects are found (those the ignore file leaves out do not count)',
      })
      .option('setting', {
        type: 'string',
        array: true,
        describe:
          "Also look for unmanaged tenant settings of this name (repeatable). The platform lists no tenant's settings, so " +
          'only the names the stack manages, and these, are looked for',
      })
      .option('summary-file', {
        type: 'string',
        describe: 'Also append the markdown report to this file, e.g. "$GITHUB_STEP_SUMMARY" for the job summary',
      })
      .option('alert', {
        type: 'boolean',
        default: false,
        describe:
          "While there is drift, keep ONE alert in the platform's alert manager (type tenantform.drift) for the stack in each data center " +
          "with drift (provider configurations with the same base_url are one data center), on the stack's " +
          "root tenant there (the nearest tenant containing every tenant the stack's objects there belong to; without any, the API client's own " +
          'tenant): raised when drift is first found, left as it is while drift lasts, dismissed when a check finds the stack in sync.',
      })
      .check((a) => {
        if (a.parallelism !== undefined && (!Number.isInteger(a.parallelism) || a.parallelism < 1))
          throw new Error('--parallelism must be a whole number of at least 1.');
        if (a['fail-on-unmanaged'] && a['ignore-unmanaged'])
          throw new Error('-fail-on-unmanaged needs the search that -ignore-unmanaged skips: pass one of them.');
        return true;
      })
      .example('tenantform drift', 'Check the only synthesized stack')
      .example('tenantform drift --format json > drift.json', 'For a program to read')
      .example('tenantform drift --alert || notify-team', 'Nightly: an alert in the platform, and the exit code for the scheduler'),
  handler: async (args) => {
    const ws = await openSynthesizedWorkspace(args);
    if (!ws) return;
    let clients: ProviderClients | undefined;
    try {
      await withUnlockedState(ws, async (state) => {
        carryOutMoves(ws.configuration.moves, state);
        if (ws.backend.readOnly) process.stderr.write(ws.backend.readOnly.notice);
        const lockedBefore = await ws.backend.currentLock();
        clients = ProviderClients.open(ws.configuration, state, (provider) => platformClient(ws.configuration, process.env, ws.commandLine, provider));
        const client = clients.default;
        await checkPlatform(client);
        const recorded = state.objects().filter((o) => o.mode === 'managed').length;
        const detected = await withReadProgress(recorded, (onRead) =>
          detectDrift({
            configuration: ws.configuration,
            state,
            clients: clients!,
            parallelism: args.parallelism,
            kindOf: resourceKind,
            onRead,
            targets: args.target ?? [],
          }),
        );
        const rules = IgnoreRules.load(join(process.cwd(), IGNORE_FILE));
        const identityOf = (address: string) => {
          const o = state.get(address);
          const kind = o && resourceKind(o.type);
          return kind ? kind.identity(o.attributes) : undefined;
        };
        let report = withIgnoredChanges(detected, rules, identityOf);
        // Each data center is searched with its own client, for the tenants of its own objects.
        const centers = driftByDataCenter(report, clients, state);
        if (!args['ignore-unmanaged'] && !hasErrors(report.diagnostics)) {
          const parts = [];
          for (const c of centers)
            parts.push(
              await findUnmanaged(c.client, {
                tenantIds: c.tenantIds,
                recorded: c.managed,
                kindOf: resourceKind,
                ignore: rules,
                settingNames: args.setting ?? [],
              }),
            );
          report = { ...report, ...mergeUnmanaged(parts) };
        }
        process.stdout.write(redactSecrets(render(report, args.format)));
        if (args['summary-file']) appendFileSync(args['summary-file'], redactSecrets(renderDriftMarkdown(report)));
        printDiagnostics(report.diagnostics);
        const lock = lockedBefore ?? (await ws.backend.currentLock());
        if (lock)
          process.stderr.write(
            `Warning: the state was locked by ${describeHolder(lock)} during this check; what it changes may show as drift. Run the check again once it is done.\n`,
          );
        if (!state.existed) process.stderr.write(`Warning: there is no state in ${ws.backend.location}: nothing has been applied yet.\n`);
        const driftFound = isDrifted(report) || (args['fail-on-unmanaged'] && (report.unmanaged?.length ?? 0) > 0);
        if (args.alert && !hasErrors(report.diagnostics)) await alert(centers, report);
        process.exitCode = hasErrors(report.diagnostics) ? 1 : driftFound ? 2 : 0;
      });
    } finally {
      await clients?.close();
    }
  },
};

function render(report: DriftReport, format: DriftArgs['format']): string {
  if (format === 'json') return renderDriftJson(report);
  if (format === 'markdown') return renderDriftMarkdown(report);
  return renderDriftText(report);
}

/** One alert per data center with drift, on the stack's root tenant there; dismissed where the stack is back in sync. */
async function alert(centers: readonly DataCenterDrift[], report: DriftReport): Promise<void> {
  for (const center of centers) {
    const part: DriftReport = { ...report, resources: center.resources };
    const s = summarizeDrift(part);
    const addresses = part.resources.filter((r) => r.status !== 'in_sync').map((r) => r.address);
    const tenantId = await stackRootTenant(center.client, center.tenantIds);
    const summary = `${addresses.length} of ${s.total} resources drifted: ${s.drifted} changed and ${s.deleted} deleted outside tenantform`;
    const outcome = await syncDriftAlert(center.client, { tenantId, stack: report.stack, addresses, summary }, isDrifted(part));
    const where = centers.length > 1 ? ` (${center.client.baseUrl})` : '';
    const said =
      outcome.action === 'raised'
        ? `Raised drift alert ${outcome.alertId} for tenant ${tenantId}${where}.`
        : outcome.action === 'still-active'
          ? `The drift alert ${outcome.alertId} for tenant ${tenantId}${where} is still active: no new alert raised.`
          : outcome.action === 'dismissed'
            ? `The stack is in sync: dismissed drift alert ${outcome.alertIds.join(', ')} of tenant ${tenantId}${where}.`
            : '';
    if (said) process.stderr.write(`${said}\n`);
  }
}
