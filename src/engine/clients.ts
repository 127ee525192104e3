import type { PlatformClient } from '../api';
import { withReadCache } from '../api/read-cache';
import type { OperationContext } from '../resources/declaration';
import { PROVIDER_TYPE } from '../resources/provider-config';
import type { Configuration } from '../config/config';
import type { StateStore } from '../state/state';
import type { AtOnce } from '../graph/graph';

/**
 * One platform client per provider configuration (`tenantform`, `tenantform.us`, ...): every
 * object is read and changed in the data center of the provider it names, as in Terraform.
 * Objects no longer declared use the provider the state recorded for them.
 */
export class ProviderClients {
  private constructor(
    private readonly byName: ReadonlyMap<string, PlatformClient>,
    private readonly resolveProvider: (address: string) => string,
  ) {}

  /**
   * Clients for the default provider and for every provider an object uses; credentials are
   * checked here, before anything is read.
   */
  static open(configuration: Configuration, state: StateStore | undefined, connect: (provider: string) => PlatformClient): ProviderClients {
    const recorded = new Map((state?.objects() ?? []).map((o) => [o.address, o.provider]));
    const providerOf = (address: string) => configuration.objects.get(address)?.provider ?? recorded.get(address) ?? PROVIDER_TYPE;
    const needed = new Set([PROVIDER_TYPE, ...[...configuration.objects.values()].map((o) => o.provider), ...recorded.values()]);
    const byName = new Map<string, PlatformClient>();
    try {
      for (const name of needed) byName.set(name, connect(configuration.providers.has(name) ? name : PROVIDER_TYPE));
    } catch (err) {
      void Promise.all([...byName.values()].map((c) => c.close()));
      throw err;
    }
    return new ProviderClients(byName, providerOf);
  }

  /** Throws the missing-credential error of any provider configuration in use, without connecting. */
  static check(configuration: Configuration, connect: (provider: string) => PlatformClient): void {
    void ProviderClients.open(configuration, undefined, connect).close();
  }

  /** A single client for every object (one data center). */
  static single(client: PlatformClient): ProviderClients {
    return new ProviderClients(new Map([[PROVIDER_TYPE, client]]), () => PROVIDER_TYPE);
  }

  /** The name of the provider configuration an object uses. */
  providerOf(address: string): string {
    return this.resolveProvider(address);
  }

  /** The provider configurations with a client. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** The client of a provider configuration by name. */
  named(provider: string): PlatformClient {
    return this.byName.get(provider) ?? this.default;
  }

  /** The client of the data center an object lives in. */
  of(address: string): PlatformClient {
    return this.byName.get(this.providerOf(address)) ?? this.default;
  }

  /** The operation context for an object. */
  ctx(address: string): OperationContext {
    return { client: this.of(address) };
  }

  /** The same data centers, each client's reads shared: for a plan, which writes nothing meanwhile. */
  withSharedReads(): ProviderClients {
    return new ProviderClients(new Map([...this.byName].map(([name, client]) => [name, withReadCache(client)])), this.resolveProvider);
  }

  /**
   * How many objects are read or changed at once. `-parallelism` when it is given: a cap, as
   * Terraform users take it. Else as many as the data centers' shared request budgets allow in
   * flight now: 10 at first, more while the platform keeps up, fewer when it refuses or slows.
   */
  atOnce(parallelism: number | undefined): AtOnce {
    if (parallelism !== undefined) return parallelism;
    const budgets = [...new Set([...this.byName.values()].map((c) => c.governor))];
    return () => budgets.reduce((sum, budget) => sum + budget.limit, 0);
  }

  get default(): PlatformClient {
    return this.byName.get(PROVIDER_TYPE)!;
  }

  async close(): Promise<void> {
    await Promise.all([...this.byName.values()].map((c) => c.close()));
  }
}
