/**
 * `.tenantformignore`: what a drift check leaves out, one pattern per line, as driftctl's ignore
 * file: `TYPE` (every unmanaged object of a type), `TYPE.ID` (an object: neither unmanaged nor
 * drifted), `TYPE.ID.ATTRIBUTE` (changes of one attribute of a managed object). `*` matches any
 * run of characters; a dot inside an id is written `\.`; `#` starts a comment.
 */
import { existsSync, readFileSync } from 'node:fs';
import { formatPath } from '../diagnostics';
import type { AttributeDrift } from '../plans/model';
import type { DriftReport, ResourceDriftReport } from './model';

export const IGNORE_FILE = '.tenantformignore';

interface Rule {
  readonly type: RegExp;
  readonly id?: RegExp;
  readonly attribute?: RegExp;
}

function glob(text: string): RegExp {
  const escaped = text
    .replace(/\\\./g, '.')
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export class IgnoreRules {
  private constructor(private readonly rules: readonly Rule[]) {}

  static parse(text: string): IgnoreRules {
    const rules = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const [type, id, ...attribute] = line.split(/(?<!\\)\./);
        return { type: glob(type), ...(id !== undefined ? { id: glob(id) } : {}), ...(attribute.length > 0 ? { attribute: glob(attribute.join('.')) } : {}) };
      });
    return new IgnoreRules(rules);
  }

  /** The rules of the ignore file in `dir`; none when there is no file. */
  static load(file: string): IgnoreRules {
    return IgnoreRules.parse(existsSync(file) ? readFileSync(file, 'utf8') : '');
  }

  /** The whole object is ignored (a TYPE rule only for unmanaged objects). */
  ignoresObject(type: string, id: string, unmanaged: boolean): boolean {
    return this.rules.some((r) => r.type.test(type) && !r.attribute && (r.id ? r.id.test(id) : unmanaged));
  }

  /** Changes of this attribute path (`value.start`) of the object are ignored. */
  ignoresAttribute(type: string, id: string, path: string): boolean {
    return this.rules.some((r) => r.type.test(type) && r.id?.test(id) && r.attribute && (r.attribute.test(path) || r.attribute.test(path.split('.')[0])));
  }
}

/** The report with the ignore file's object and attribute rules applied to managed objects. */
export function withIgnoredChanges(report: DriftReport, rules: IgnoreRules, idOf: (address: string) => string | undefined): DriftReport {
  const resources = report.resources.map((r): ResourceDriftReport => {
    const id = idOf(r.address);
    if (id === undefined || r.changes.length === 0) return r;
    const ignored = (c: AttributeDrift) => rules.ignoresObject(r.type, id, false) || rules.ignoresAttribute(r.type, id, formatPath(c.path));
    const kept = r.changes.filter((c) => !ignored(c));
    if (kept.length === r.changes.length) return r;
    const dropped = r.changes.filter(ignored).map((c) => String(c.path[0]));
    return { ...r, changes: kept, ignored: [...new Set([...r.ignored, ...dropped])], status: kept.length > 0 ? r.status : 'in_sync' };
  });
  return { ...report, resources };
}
