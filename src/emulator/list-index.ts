/**
 * Entries of one of the world's lists grouped by a key, each group in the list's order: an
 * estate's requests look up users by login, a tenant's offering items and one setting without
 * scanning the whole list (an estate has a hundred thousand of them).
 *
 * The list is appended to, replaced by a new list (a deletion), or changed through this index:
 * appended entries are added on the next lookup and a new or shorter list rebuilds it, so the
 * index is never stale.
 */
export class ListIndex<T> {
  private list?: T[];
  /** How many of `list` are indexed. */
  private size = 0;
  private groups = new Map<string, T[]>();

  constructor(private readonly keyOf: (entry: T) => string) {}

  /** The entries of a key, in the list's order. */
  get(list: T[], key: string): readonly T[] {
    return this.group(list, key);
  }

  /** Appends entries to the list and the index. */
  push(list: T[], ...entries: T[]): void {
    this.sync(list);
    list.push(...entries);
    for (const e of entries) this.add(e);
    this.size = list.length;
  }

  /** Puts `next` in the place of `entry` in the list, under the same key. */
  replace(list: T[], entry: T, next: T): void {
    const group = this.group(list, this.keyOf(entry));
    const i = list.indexOf(entry);
    if (i < 0 || this.keyOf(next) !== this.keyOf(entry)) throw new Error('replace: not an entry of the list under the same key');
    list[i] = next;
    group.splice(group.indexOf(entry), 1, next);
  }

  /** Takes an entry out of the list. */
  remove(list: T[], entry: T): void {
    const group = this.group(list, this.keyOf(entry));
    const i = list.indexOf(entry);
    if (i < 0) return;
    list.splice(i, 1);
    group.splice(group.indexOf(entry), 1);
    if (group.length === 0) this.groups.delete(this.keyOf(entry));
    this.size = list.length;
  }

  /**
   * Replaces the entries of a key by `next`, put at the end of the list as a new list of
   * `others` then `next` would: in place when they are the list's last entries (a tenant that
   * has just been given its items), else by assigning that new list through `assign`.
   */
  replaceGroup(list: T[], key: string, next: T[], assign: (list: T[]) => void): void {
    const group = this.get(list, key);
    const start = list.length - group.length;
    if (!group.every((e, j) => list[start + j] === e)) {
      assign([...list.filter((e) => this.keyOf(e) !== key), ...next]);
      return;
    }
    list.length = start;
    this.groups.delete(key);
    this.size = list.length;
    this.push(list, ...next);
  }

  /**
   * Call after an entry's key changed in place (a user's new login): moves it to the end of its
   * new group (only for keys whose groups' order does not matter).
   */
  rekeyed(entry: T, previousKey: string): void {
    const old = this.groups.get(previousKey);
    const i = old?.indexOf(entry) ?? -1;
    if (old === undefined || i < 0) return; // not indexed yet: it is indexed under its new key when reached
    old.splice(i, 1);
    if (old.length === 0) this.groups.delete(previousKey);
    this.add(entry);
  }

  private group(list: T[], key: string): T[] {
    this.sync(list);
    return this.groups.get(key) ?? [];
  }

  private sync(list: T[]): void {
    if (this.list !== list || this.size > list.length) {
      this.list = list;
      this.size = 0;
      this.groups = new Map();
    }
    for (; this.size < list.length; this.size++) this.add(list[this.size]);
  }

  private add(entry: T): void {
    const key = this.keyOf(entry);
    const group = this.groups.get(key);
    if (group === undefined) this.groups.set(key, [entry]);
    else group.push(entry);
  }
}
