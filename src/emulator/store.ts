/**
 * The emulated platform's world with the lookups every interface module needs, and its
 * persistence (temporary file in the same directory, fsync, rename).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SeededRandom } from './prng';
import { seedWorld } from './seed';
import { ListIndex } from './list-index';
import type { Agent, ApiClient, Application, OfferingItem, OwnSetting, Tenant, User, World } from './world';

export * from './world';
export { ALL_SCOPES, seedWorld, TASK_TOPIC, TENANT_TOPIC } from './seed';

interface TenantIndex {
  readonly tenants: Tenant[];
  /** How many of `tenants` are indexed. */
  size: number;
  readonly byId: Map<string, Tenant>;
  readonly children: Map<string, Tenant[]>;
}

/** The world plus the lookups and persistence every interface module needs. */
export class Store {
  world: World;
  /**
   * What `GET /tenants/{id}/applications` lists: the applications a tenant has on (the seeds'
   * records), or those available to it (the vendor reference's words): both readings can be tried.
   */
  tenantApplications: 'on' | 'available' = 'on';
  /**
   * What an object's `version` is: a counter from 1, or, as the live platform answers, the
   * millisecond timestamp of its last change (the reference's example is `1559561146223`).
   */
  versions: 'counters' | 'timestamps' = 'counters';
  private ids: SeededRandom;
  private index?: TenantIndex;
  private users?: { readonly list: User[]; size: number; readonly byId: Map<string, User> };
  // Logins are unique whatever their case.
  private readonly logins = new ListIndex<User>((u) => u.login.toLowerCase());
  // A user's tenant never changes.
  private readonly tenantUsers = new ListIndex<User>((u) => u.tenant_id);
  private readonly items = new ListIndex<OfferingItem>((i) => i.tenant_id);
  private readonly settings = new ListIndex<OwnSetting>((s) => settingKey(s.application_id, s.tenant_id, s.name));

  constructor(
    world: World,
    private readonly dataFile?: string,
  ) {
    this.world = world;
    this.ids = new SeededRandom(world.idState);
  }

  /** Loads the world from `dataFile` when it exists, else seeds it (and writes it there). */
  static open(seed: number, dataFile?: string): Store {
    if (dataFile !== undefined && fs.existsSync(dataFile)) {
      const parsed = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as World;
      if (parsed.format !== 'tenantform-emulator-world') throw new Error(`${dataFile} is not an emulator data file`);
      return new Store(parsed, dataFile);
    }
    const store = new Store(seedWorld(seed), dataFile);
    store.save();
    return store;
  }

  /** Replaces the world by a freshly seeded one (same seed as the current world). */
  reset(): void {
    this.world = seedWorld(this.world.seed);
    this.ids = new SeededRandom(this.world.idState);
    this.save();
  }

  /** The version an object gets when it is made (no `previous`) or changed, as `versions` says. */
  nextVersion(previous?: number): number {
    const next = (previous ?? 0) + 1;
    // Strictly growing even when two changes fall in one millisecond.
    return this.versions === 'timestamps' ? Math.max(Date.now(), next) : next;
  }

  newId(): string {
    const id = this.ids.uuid();
    this.world.idState = this.ids.snapshot;
    return id;
  }

  newSecret(): string {
    const s = this.ids.secret();
    this.world.idState = this.ids.snapshot;
    return s;
  }

  /** Call after every mutation: writes the data file atomically when there is one. */
  save(): void {
    if (this.dataFile === undefined) return;
    const dir = path.dirname(this.dataFile);
    const tmp = path.join(dir, `.${path.basename(this.dataFile)}.${process.pid}.tmp`);
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(this.world, null, 2));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.dataFile);
  }

  // ---- lookups

  tenant(id: string): Tenant | undefined {
    return this.tenantIndex().byId.get(id);
  }

  tenantByName(name: string): Tenant | undefined {
    return this.world.tenants.find((t) => t.name === name);
  }

  /** A tenant's children, in the list's order: the index's own list, not copied (a partner has tens of thousands). */
  children(id: string): readonly Tenant[] {
    return this.tenantIndex().children.get(id) ?? [];
  }

  /** Call when a tenant moves to another parent: the index of children is made again. */
  tenantMoved(): void {
    this.index = undefined;
  }

  /**
   * The tenants by id and by parent, in the list's order. Tenants are only appended to the list or
   * the list replaced (a deletion), so new entries are added to the index, and a new list rebuilds it:
   * a lookup no longer scans every tenant (an estate has tens of thousands).
   */
  private tenantIndex(): TenantIndex {
    const tenants = this.world.tenants;
    let index = this.index;
    if (index === undefined || index.tenants !== tenants || index.size > tenants.length) {
      index = this.index = { tenants, size: 0, byId: new Map(), children: new Map() };
    }
    for (; index.size < tenants.length; index.size++) {
      const t = tenants[index.size];
      index.byId.set(t.id, t);
      if (t.parent_id !== null) (index.children.get(t.parent_id) ?? index.children.set(t.parent_id, []).get(t.parent_id)!).push(t);
    }
    return index;
  }

  /**
   * The user of an id. Users, like tenants, are only appended to their list or the list replaced,
   * so the index grows with the list and a new list rebuilds it: an estate's user requests no
   * longer scan every user.
   */
  user(id: string): User | undefined {
    const list = this.world.users;
    if (this.users?.list !== list || this.users.size > list.length) this.users = { list, size: 0, byId: new Map() };
    for (const index = this.users; index.size < list.length; index.size++) index.byId.set(list[index.size].id, list[index.size]);
    return this.users.byId.get(id);
  }

  /** The users whose login is `login` in any case. */
  usersWithLogin(login: string): readonly User[] {
    return this.logins.get(this.world.users, login.toLowerCase());
  }

  /** A tenant's users, in the world's order. */
  usersOf(tenantId: string): readonly User[] {
    return this.tenantUsers.get(this.world.users, tenantId);
  }

  /** Call after a user's login changed in place. */
  loginChanged(user: User, previous: string): void {
    this.logins.rekeyed(user, previous.toLowerCase());
  }

  /** A tenant's offering items, in the world's order. */
  itemsOf(tenantId: string): readonly OfferingItem[] {
    return this.items.get(this.world.offeringItems, tenantId);
  }

  /** Replaces a tenant's offering items by `next`, which go to the end of the world's list. */
  setItemsOf(tenantId: string, next: OfferingItem[]): void {
    this.items.replaceGroup(this.world.offeringItems, tenantId, next, (list) => (this.world.offeringItems = list));
  }

  /** A tenant's own value of a setting. */
  ownSetting(appId: string, tenantId: string, name: string): OwnSetting | undefined {
    return this.settings.get(this.world.settings, settingKey(appId, tenantId, name))[0];
  }

  /** Sets a tenant's own value of a setting, in the place of the one it replaces. */
  putSetting(next: OwnSetting): void {
    const current = this.ownSetting(next.application_id, next.tenant_id, next.name);
    if (current === undefined) this.settings.push(this.world.settings, next);
    else this.settings.replace(this.world.settings, current, next);
  }

  deleteSetting(setting: OwnSetting): void {
    this.settings.remove(this.world.settings, setting);
  }

  /** The tenant and its ancestors, nearest first, ending at the root. */
  pathUp(id: string): Tenant[] {
    const out: Tenant[] = [];
    let cur = this.tenant(id);
    while (cur !== undefined && out.length <= this.world.tenants.length) {
      out.push(cur);
      cur = cur.parent_id === null ? undefined : this.tenant(cur.parent_id);
    }
    return out;
  }

  /** Depth below the root (the root is level 0). */
  level(id: string): number {
    return this.pathUp(id).length - 1;
  }

  /** The tenant and all its descendants, level by level (parents before children, siblings in the list's order). */
  subtree(id: string): Tenant[] {
    const root = this.tenant(id);
    if (root === undefined) return [];
    const out: Tenant[] = [root];
    for (let i = 0; i < out.length; i++) for (const child of this.children(out[i].id)) out.push(child);
    return out;
  }

  isInSubtree(id: string, rootId: string): boolean {
    return this.pathUp(id).some((t) => t.id === rootId);
  }

  application(id: string): Application | undefined {
    return this.world.applications.find((a) => a.id === id);
  }

  agent(id: string): Agent | undefined {
    return this.world.agents.find((a) => a.id === id);
  }

  client(id: string): ApiClient | undefined {
    return this.world.clients.find((c) => c.client_id === id);
  }

  get primaryClient(): ApiClient {
    return this.client(this.world.primaryClientId) as ApiClient;
  }
}

const settingKey = (appId: string, tenantId: string, name: string): string => JSON.stringify([appId, tenantId, name]);
