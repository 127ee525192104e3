import type { Diagnostic } from '../diagnostics';
import type { ProviderClients } from './clients';
import type { DataSourceKind, ResourceKind, State } from '../resources/declaration';
import { createResource, deleteResource, discardLostResource, readDataSource, runOperation, updateResource } from '../resources/operations';
import { planResource } from '../resources/plan';
import { recheckUnversioned } from '../resources/unversioned';
import { resourceErrors } from '../resources/errors';
import { containsUnknown, normalize, preserveJsonText } from '../resources/values';
import { CreateGate, heldIdentities } from './adoption';
import { dependencies, isGroupNode, type Configuration } from '../config/config';
import { createOrAdopt, type PendingCreateResult } from './create-pending';
import { applyGraph, batchedType, batchMembers } from './apply-graph';
import { runInOrder } from '../graph/graph';
import type { Plan, PlannedChange } from '../plans/model';
import type { Progress, Step } from './progress';
import { evaluateArguments, lookupIn, withSensitiveMarks, type Known } from '../config/evaluate';
import { StateJournal } from '../state/journal';
import { evaluateOutputs, recordedOutputs } from './outputs';
import { checkWarnings, conditionErrors } from '../config/checks';
import { contextFor, withSelf } from '../config/expression-scope';
import type { StateStore } from '../state/state';

export interface ApplyOptions {
  readonly plan: Plan;
  /** Data source values the plan was made with. */
  readonly data: Readonly<Record<string, State>>;
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  /** `-parallelism` when given (a cap); undefined: the data centers' request budgets decide (see `ProviderClients.atOnce`). */
  readonly parallelism?: number;
  readonly kindOf: (type: string) => ResourceKind | undefined;
  readonly progress: Progress;
}

export interface ApplyResult {
  readonly added: number;
  readonly changed: number;
  readonly destroyed: number;
  /** Objects adopted by import blocks: recorded from what the plan read, before anything is sent. */
  readonly imported?: number;
  readonly diagnostics: Diagnostic[];
}

/**
 * Applies a plan: dependency order (deletes in reverse), as many at a time as `parallelism` (or,
 * without it, the request budgets) allow, the state written as each object completes. A failure stops only what depends on it; everything
 * that succeeded stays recorded.
 */
export async function applyPlan(opts: ApplyOptions): Promise<ApplyResult> {
  const run = new ApplyRun(opts);
  await run.recordRefreshed();
  // A refresh-only plan changes nothing on the platform: recording what was read is all of it.
  if (opts.plan.refreshOnly) return { added: 0, changed: 0, destroyed: 0, diagnostics: [] };
  // Each finished object is appended to a journal beside the state; the state is written at the end.
  const journal = await StateJournal.begin(opts.state);
  let result: ApplyResult;
  try {
    result = await run.execute(journal);
  } finally {
    await journal.finish();
  }
  await run.recordOutputs();
  // Check blocks again, with what was applied: a warning for each assertion that fails now.
  if (!opts.plan.destroy) result.diagnostics.push(...run.checkWarnings());
  return result;
}

class ApplyRun {
  private readonly values = new Map<string, State>();
  private readonly changes: Map<string, PlannedChange>;
  private readonly configDeps: ReturnType<typeof dependencies>;
  private readonly counts = { added: 0, changed: 0, destroyed: 0 };
  private imported = 0;
  private readonly diagnostics: Diagnostic[] = [];
  private journal!: StateJournal;
  private readonly lookup: Known;
  /** One per kind whose creates cannot be repeated blindly. */
  private readonly gates = new Map<string, CreateGate>();

  constructor(private readonly opts: ApplyOptions) {
    this.changes = new Map(opts.plan.changes.filter((c) => c.mode === 'managed').map((c) => [c.address, c]));
    this.configDeps = dependencies(opts.configuration);
    this.lookup = lookupIn(opts.configuration, this.values);
    for (const [address, value] of Object.entries(opts.data)) this.values.set(address, value);
    for (const c of this.changes.values()) this.values.set(c.address, withSensitiveMarks(c.after ?? c.before ?? {}, c.sensitive));
  }

  /**
   * Records what the plan saw (refreshed objects, adopted interrupted creates, data sources),
   * as Terraform does, and forgets objects deleted outside tenantform.
   */
  async recordRefreshed(): Promise<void> {
    const { state, configuration, plan } = this.opts;
    for (const c of this.changes.values()) {
      const kind = this.opts.kindOf(c.type)!;
      // A create that cannot be adopted keeps its trace until its create discards what it made.
      if (!(kind.discardLost && c.action === 'create')) state.removePending(c.address);
      if (c.before) state.put(c.address, kind, c.before, this.dependenciesOf(c.address), undefined, this.sensitiveArguments(c.address));
      else state.remove(c.address);
      if (c.importing && c.before) this.imported++;
      const declared = configuration.objects.get(c.address);
      if (declared) state.setProtected(c.address, declared.preventDestroy);
    }
    for (const d of plan.drift) if (d.action === 'delete' && !this.changes.get(d.address)?.before) state.remove(d.address);
    // An interrupted create no longer declared, and not found on the platform: nothing is left to track.
    for (const p of state.pending()) if (!configuration.objects.has(p.address)) state.removePending(p.address);
    for (const [address, value] of Object.entries(this.opts.data)) {
      state.put(address, configuration.objects.get(address)!.kind, value, this.dependenciesOf(address), this.opts.clients.providerOf(address));
    }
    for (const o of state.objects()) if (o.mode === 'data' && !configuration.objects.has(o.address)) state.remove(o.address);
    await state.save();
  }

  /**
   * Postconditions on the object as applied (recorded already, as Terraform records it): a false
   * one fails the object, and what depends on it is not applied.
   */
  private postconditions(address: string, value: State): Diagnostic[] {
    const declared = this.opts.configuration.objects.get(address);
    if (!declared || declared.conditions.post.length === 0) return [];
    return conditionErrors(
      'postcondition',
      declared.conditions.post,
      withSelf(contextFor(this.opts.configuration, this.values, declared), declared.kind, value),
      address,
    );
  }

  /** The check blocks' assertions with the values as applied. */
  checkWarnings(): Diagnostic[] {
    return checkWarnings(this.opts.configuration.checks, contextFor(this.opts.configuration, this.values));
  }

  /** Output values that are known now, recorded as Terraform records them (also after a partial apply). */
  async recordOutputs(): Promise<void> {
    if (this.opts.plan.destroy) {
      this.opts.state.setOutputs({});
      await this.opts.state.save();
      return;
    }
    const { values } = evaluateOutputs(this.opts.configuration, this.values);
    const known = recordedOutputs(values);
    // An output not known now keeps its recorded value until it can be evaluated.
    const previous = this.opts.state.outputs();
    const kept = Object.fromEntries([...values.keys()].filter((n) => !(n in known) && n in previous).map((n) => [n, previous[n]]));
    this.opts.state.setOutputs({ ...kept, ...known });
    await this.opts.state.save();
  }

  async execute(journal: StateJournal): Promise<ApplyResult> {
    this.journal = journal;
    const nodes = applyGraph({
      changes: this.changes,
      configDeps: this.configDeps,
      recorded: this.opts.state.objects(),
      knownData: this.opts.data,
      writesInBatch: (type) => this.opts.kindOf(type)?.writeBatch !== undefined,
      isGroupNode: (address) => isGroupNode(this.opts.configuration, address),
    });
    const { failed, skipped } = await runInOrder(nodes, this.opts.clients.atOnce(this.opts.parallelism), (node) => this.run(node));
    for (const node of skipped) {
      for (const address of this.membersOf(node)) {
        this.diagnostics.push({
          severity: 'warning',
          summary: 'Not applied',
          detail: `${address} was not applied because something it depends on failed. Fix the errors and apply again.`,
          address,
        });
      }
    }
    if (failed.length > 0 && !this.diagnostics.some((d) => d.severity === 'error')) {
      this.diagnostics.push({ severity: 'error', summary: 'Apply failed', detail: `Failed: ${failed.join(', ')}.` });
    }
    return { ...this.counts, imported: this.imported, diagnostics: this.diagnostics };
  }

  private membersOf(node: string): string[] {
    const type = batchedType(node);
    if (type === undefined) return isGroupNode(this.opts.configuration, node) ? [] : [node];
    return batchMembers(this.changes, type);
  }

  /** Arguments given a sensitive value (not those the kind declares sensitive, which Terraform knows from the schema). */
  private sensitiveArguments(address: string): string[] {
    const c = this.changes.get(address);
    const kind = c ? this.opts.kindOf(c.type) : undefined;
    return (c?.sensitive ?? []).filter((n) => !kind?.attributes[n]?.sensitive);
  }

  private dependenciesOf(address: string): string[] {
    return [...(this.configDeps.get(address) ?? this.opts.state.get(address)?.dependencies ?? [])];
  }

  private async run(node: string): Promise<boolean> {
    const type = batchedType(node);
    if (type !== undefined)
      return this.runBatch(
        this.opts.kindOf(type)!,
        this.membersOf(node).map((a) => this.changes.get(a)!),
      );
    const change = this.changes.get(node);
    if (!change) return isGroupNode(this.opts.configuration, node) || this.readLateData(node); // a group node succeeds with its instances
    switch (change.action) {
      case 'delete':
        return this.destroy(change);
      case 'create':
        return this.create(change);
      case 'update':
        return this.update(change);
      case 'replace':
        return (await this.destroy(change)) && this.create(change);
      default:
        return true;
    }
  }

  private async readLateData(address: string): Promise<boolean> {
    const declared = this.opts.configuration.objects.get(address)!;
    const step = this.opts.progress.start(address, 'read');
    const { config, diagnostics: invalid } = evaluateArguments(declared, this.lookup);
    if (invalid.length > 0) return this.fail(step, invalid);
    const r = await readDataSource({ kind: declared.kind as DataSourceKind, address, ctx: this.opts.clients.ctx(address), config });
    if (!r.value) return this.fail(step, r.diagnostics);
    this.values.set(address, r.value);
    this.opts.state.put(address, declared.kind, r.value, this.dependenciesOf(address), declared.provider);
    await this.journal.durable();
    step.done(r.value);
    return true;
  }

  /** The planned object with every reference now known; undefined (and a diagnostic) when it cannot be. */
  private async finalPlanned(change: PlannedChange, prior: State | null): Promise<{ planned: State; unchanged: boolean } | Diagnostic[]> {
    const kind = this.opts.kindOf(change.type)!;
    const declared = this.opts.configuration.objects.get(change.address)!;
    const { config, diagnostics: invalid } = evaluateArguments(declared, this.lookup);
    // Values known only now are checked before the request that would carry them.
    if (invalid.length > 0) return [...invalid];
    // So are preconditions that needed them: a false one sends nothing.
    if (declared.conditions.pre.length > 0) {
      const failed = conditionErrors('precondition', declared.conditions.pre, contextFor(this.opts.configuration, this.values, declared), change.address);
      if (failed.length > 0) return failed;
    }
    const r = await planResource({ kind, address: change.address, config, prior, ignoreChanges: declared.ignoreChanges });
    const expected = prior ? 'update' : 'create';
    if (!r.planned || containsUnknown(config) || (r.action !== expected && r.action !== 'no-op')) {
      return [
        {
          severity: 'error',
          summary: 'The plan changed during apply',
          detail: `Once the values it depends on were known, ${change.address} needed a ${r.action} instead of ${change.action}. Run \`tenantform plan\` again.`,
          address: change.address,
        },
      ];
    }
    return { planned: r.planned, unchanged: r.action === 'no-op' };
  }

  private async create(change: PlannedChange): Promise<boolean> {
    const kind = this.opts.kindOf(change.type)!;
    const step = this.opts.progress.start(change.address, 'create');
    const final = await this.finalPlanned(change, null);
    if (Array.isArray(final)) return this.fail(step, final);
    const { state } = this.opts;
    const planned = kind.prepareCreate ? kind.prepareCreate(final.planned) : final.planned;
    if (kind.nonIdempotentCreate) {
      const interrupted = state.pending().find((p) => p.address === change.address);
      if (interrupted && kind.discardLost) {
        // An earlier run's create that cannot be adopted: what it made goes before it is made again.
        const discarded = await discardLostResource({
          kind,
          address: change.address,
          ctx: this.opts.clients.ctx(change.address),
          pending: interrupted.attributes,
        });
        if (discarded.value === undefined) return this.fail(step, discarded.diagnostics);
      }
      // Recorded before the request: a crash in between leaves a trace the next run adopts.
      state.addPending(change.address, stripUnknown(planned));
      await this.journal.durablePending();
    }
    const r = kind.nonIdempotentCreate ? await this.createPending(kind, change.address, planned) : await this.createPlain(kind, change.address, planned);
    if (!r.value) {
      // A refusal (not retryable) means nothing was created; anything else may have been.
      if (kind.nonIdempotentCreate && r.diagnostics.every((d) => d.retryable === false)) {
        state.removePending(change.address);
        await this.journal.durable();
      }
      return this.fail(step, r.diagnostics);
    }
    const post = this.postconditions(change.address, r.value);
    if (post.length > 0) return this.fail(step, post);
    this.counts.added++;
    step.done(r.value, r.adopted ? 'its answer was lost; found on the platform and adopted' : undefined);
    return true;
  }

  private async createPlain(kind: ResourceKind, address: string, planned: State): Promise<PendingCreateResult> {
    const r = await createResource({ kind, address, ctx: this.opts.clients.ctx(address), planned });
    if (r.value) await this.record(address, kind, r.value);
    return r;
  }

  private createPending(kind: ResourceKind, address: string, planned: State): Promise<PendingCreateResult> {
    // One gate per kind and data center.
    const gateKey = `${kind.type} ${this.opts.clients.providerOf(address)}`;
    let gate = this.gates.get(gateKey);
    if (!gate) this.gates.set(gateKey, (gate = new CreateGate()));
    const recorded = () =>
      new Map(
        this.opts.state
          .objects()
          .filter((o) => o.mode === 'managed')
          .map((o) => [o.address, o.attributes] as const),
      );
    return createOrAdopt({
      kind,
      address,
      ctx: this.opts.clients.ctx(address),
      planned,
      pending: stripUnknown(planned),
      gate,
      held: () => heldIdentities(kind, recorded(), address),
      record: (value) => this.record(address, kind, value),
    });
  }

  private async update(change: PlannedChange): Promise<boolean> {
    const kind = this.opts.kindOf(change.type)!;
    const step = this.opts.progress.start(change.address, 'update', change.before);
    const final = await this.finalPlanned(change, change.before);
    if (Array.isArray(final)) return this.fail(step, final);
    if (final.unchanged) {
      step.done(change.before);
      return true;
    }
    // The prior object is the one the plan saw: its version is what the update sends.
    const r = await updateResource({
      kind,
      address: change.address,
      ctx: this.opts.clients.ctx(change.address),
      prior: change.before!,
      planned: final.planned,
    });
    if (!r.value) return this.fail(step, r.diagnostics);
    await this.record(change.address, kind, r.value);
    const post = this.postconditions(change.address, r.value);
    if (post.length > 0) return this.fail(step, post);
    this.counts.changed++;
    step.done(r.value);
    return true;
  }

  private async destroy(change: PlannedChange): Promise<boolean> {
    const kind = this.opts.kindOf(change.type)!;
    if (change.forget) {
      // A removed block with destroy = false: nothing is sent; the object leaves the state.
      this.opts.state.remove(change.address);
      this.opts.state.setProtected(change.address, false);
      await this.journal.durable();
      return true;
    }
    const step = this.opts.progress.start(change.address, 'delete', change.before);
    const r = await deleteResource({ kind, address: change.address, ctx: this.opts.clients.ctx(change.address), prior: change.before! });
    if (r.diagnostics.length > 0) return this.fail(step, r.diagnostics);
    this.opts.state.remove(change.address);
    this.opts.state.setProtected(change.address, false);
    await this.journal.durable();
    this.counts.destroyed++;
    step.done(null, kind.deleteOnlyForgets ? 'removed from the state only: the platform cannot delete it' : undefined);
    return true;
  }

  /** Objects of a kind that writes in batches, sent in one request per data center. */
  private async runBatch(kind: ResourceKind, changes: PlannedChange[]): Promise<boolean> {
    const byProvider = new Map<string, PlannedChange[]>();
    for (const c of changes) {
      const provider = this.opts.clients.providerOf(c.address);
      byProvider.set(provider, [...(byProvider.get(provider) ?? []), c]);
    }
    const results = await Promise.all([...byProvider.values()].map((group) => this.runOneBatch(kind, group)));
    return results.every(Boolean);
  }

  private async runOneBatch(kind: ResourceKind, changes: PlannedChange[]): Promise<boolean> {
    const batch = kind.writeBatch!;
    const steps = changes.map((c) => this.opts.progress.start(c.address, c.action === 'create' ? 'create' : 'update', c.before));
    const finals = await Promise.all(changes.map((c) => this.finalPlanned(c, c.before)));
    const problems = finals.flatMap((f) => (Array.isArray(f) ? f : []));
    if (problems.length > 0) return this.failAll(steps, problems);
    const rechecked = await Promise.all(
      changes.map((c, i) => {
        const planned = (finals[i] as { planned: State }).planned;
        return c.before ? this.recheck(kind, c.address, c.before, planned) : { value: planned, diagnostics: [] };
      }),
    );
    const refused = rechecked.flatMap((r) => r.diagnostics);
    if (refused.length > 0) return this.failAll(steps, refused);
    const planned = rechecked.map((r) => r.value!);
    const r = await runOperation(changes.map((c) => c.address).join(', '), batch.doing, () => batch.write(this.opts.clients.ctx(changes[0].address), planned));
    if (!r.value) return this.failAll(steps, r.diagnostics);
    for (const [i, c] of changes.entries()) {
      const value = preserveJsonText(kind.attributes, planned[i], normalize(kind.attributes, r.value[i]));
      await this.record(c.address, kind, value);
      if (c.action === 'create') this.counts.added++;
      else this.counts.changed++;
      steps[i].done(value);
    }
    return true;
  }

  /** What a batched update sends, once the object is read again and found as the plan saw it. */
  private recheck(kind: ResourceKind, address: string, seen: State, planned: State) {
    return runOperation(address, 'reading the object again before writing it', async () => {
      const fresh = await recheckUnversioned(kind, { ...this.opts.clients.ctx(address), address }, address, seen, planned);
      if (!fresh) throw resourceErrors.goneDuringApply(address);
      return fresh;
    });
  }

  private async record(address: string, kind: ResourceKind, value: State): Promise<void> {
    this.values.set(address, withSensitiveMarks(value, this.changes.get(address)?.sensitive ?? []));
    this.opts.state.put(address, kind, value, this.dependenciesOf(address), this.opts.clients.providerOf(address), this.sensitiveArguments(address));
    this.opts.state.removePending(address);
    await this.journal.durable();
  }

  private fail(step: Step, diagnostics: readonly Diagnostic[]): false {
    return this.failAll([step], diagnostics);
  }

  private failAll(steps: Step[], diagnostics: readonly Diagnostic[]): false {
    for (const s of steps) s.failed();
    this.diagnostics.push(...diagnostics);
    return false;
  }
}

function stripUnknown(s: State): State {
  return JSON.parse(JSON.stringify(s, (_k, v: unknown) => (typeof v === 'symbol' ? null : v))) as State;
}
