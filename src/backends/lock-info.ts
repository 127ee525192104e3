import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';

/** The lock's record, with the fields (and spelling) Terraform writes and reads in every backend. */
export interface LockInfo {
  ID: string;
  Operation: string;
  Info: string;
  Who: string;
  Version: string;
  Created: string;
  Path: string;
}

/** What is known of whoever holds a lock (backends that store no LockInfo know less). */
export type LockHolder = Partial<LockInfo> & { description?: string };

export function newLockInfo(operation: string, version: string, path: string): LockInfo {
  return { ID: randomUUID(), Operation: operation, Info: '', Who: whoAmI(), Version: version, Created: new Date().toISOString(), Path: path };
}

/** One line naming the holder, for errors and warnings. */
export function describeHolder(holder: LockHolder): string {
  if (holder.description && !holder.Who) return holder.description;
  return `${holder.Who ?? 'an unknown user'} since ${holder.Created ?? 'an unknown time'} (operation: ${holder.Operation ?? 'unknown'}${holder.ID ? `, lock ID ${holder.ID}` : ''})`;
}

/** Parses a LockInfo document someone else wrote; whatever is unreadable is left out. */
export function parseLockInfo(text: string): LockHolder {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return {};
    const holder: LockHolder = {};
    for (const key of ['ID', 'Operation', 'Info', 'Who', 'Version', 'Created', 'Path'] as const) {
      const field = (value as Record<string, unknown>)[key];
      if (typeof field === 'string') holder[key] = field;
    }
    return holder;
  } catch {
    return {};
  }
}

/** `user@host`, as Terraform names a lock's holder. */
export function whoAmI(): string {
  return `${userName()}@${hostname()}`;
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}
