import { changedOutputs, hasChanges, summarize, type Plan } from '../model';
import { actionableChanges, secretTexts, sensitiveByAddress } from './diff';
import { ACTION_ORDER, ACTION_WORDS, changeDetails, diagnosticItem, driftDetails, fencedBlock, HEADLINES, inlineCode, plural, type Acting } from './markdown';
import { outputLines } from './text';

/**
 * The plan as pull-request comments, as tfcmt and Atlantis post them: a title naming the
 * stack, a link to the CI run, and, when one comment would pass GitHub's limit, several
 * numbered comments, each complete markdown, instead of a cut. Each starts with a hidden
 * marker naming the stack and the comment's number, so a workflow finds and updates them.
 */

/** GitHub refuses comments longer than this. */
export const COMMENT_LIMIT = 65536;

export interface CommentOptions {
  /** The CI run that made the plan (see ciRunUrl). */
  readonly runUrl?: string;
  readonly maxLength?: number;
}

/** `<!-- tenantform-plan stack=NAME part=N -->`: what a workflow searches for. */
export function commentMarker(stack: string, part: number): string {
  return `<!-- tenantform-plan stack=${stack.replace(/-->/g, '')} part=${part} -->`;
}

/** A heading and its items, as one markdown section; continued in the next comment when long. */
interface Section {
  readonly heading: string;
  /** Between the heading and the first item, and between items. */
  readonly joiner: '\n' | '\n\n';
  readonly items: string[];
}

function sections(plan: Plan): Section[] {
  const secrets = secretTexts(plan);
  const sensitive = sensitiveByAddress(plan);
  const changes = actionableChanges(plan);
  const byAction = ACTION_ORDER.flatMap((a) => changes.filter((c) => c.action === a));
  const destructive = byAction.filter((c) => c.action === 'delete' || c.action === 'replace');
  const s = summarize(plan.changes);
  const outputs = changedOutputs(plan);
  const headline = hasChanges(plan)
    ? `**Plan:** ${s.add} to add, ${s.change} to change, ${s.destroy} to destroy.`
    : outputs.length > 0
      ? '**Only outputs change.** Applying saves their new values; nothing changes on the platform.'
      : '**No changes.** Your configuration matches the platform.';
  const out: Section[] = [{ heading: headline, joiner: '\n', items: [] }];
  if (destructive.length > 0) {
    const deletes = destructive.filter((c) => c.action === 'delete').length;
    const counts = [deletes > 0 ? `destroys ${plural(deletes, 'resource', 'resources')}` : '', destructive.length > deletes ? `replaces ${plural(destructive.length - deletes, 'resource', 'resources')}` : ''];
    out.push({
      heading: `> [!WARNING]\n> This plan ${counts.filter(Boolean).join(' and ')}. Review before merging:`,
      joiner: '\n',
      items: destructive.map((c) => `> - ${inlineCode(c.address)} ${HEADLINES[c.action as Acting]}`),
    });
  }
  if (byAction.length > 0) {
    out.push({ heading: '| Action | Resource |\n| --- | --- |', joiner: '\n', items: byAction.map((c) => `| ${ACTION_WORDS[c.action as Acting]} | ${inlineCode(c.address, true)} |`) });
  }
  if (outputs.length > 0) out.push({ heading: '### Changes to Outputs', joiner: '\n\n', items: [fencedBlock('diff', outputLines(outputs))] });
  const drift = plan.drift.map((d) => driftDetails(d, sensitive.get(d.address) ?? new Set())).filter((d): d is string => d !== null);
  if (drift.length > 0) out.push({ heading: '### Changed outside tenantform', joiner: '\n\n', items: drift });
  if (changes.length > 0) out.push({ heading: '### Changes', joiner: '\n\n', items: changes.map(changeDetails) });
  if (plan.diagnostics.length > 0) out.push({ heading: '### Diagnostics', joiner: '\n\n', items: [plan.diagnostics.map((d) => diagnosticItem(d, secrets)).join('\n')] });
  return out;
}

function header(stack: string, part: number, total: number, runUrl: string | undefined): string {
  const numbered = total > 1 ? ` (comment ${part} of ${total})` : '';
  const run = runUrl ? `\n\nPlanned by [this CI run](${runUrl}).` : '';
  return `${commentMarker(stack, part)}\n## tenantform plan for stack ${inlineCode(stack)}${numbered}${run}`;
}

const CONTINUED = ' (continued)';
const CUT = '\n\n_This entry is longer than a comment can be; run `tenantform plan` to see it whole._';

/** One item that alone would not fit: cut, saying so (a fenced block is closed again). */
function fitted(item: string, room: number): string {
  if (item.length <= room) return item;
  const fence = /^(`{3,})/m.exec(item)?.[1];
  const closing = fence ? `\n${fence}${item.includes('<details>') ? '\n\n</details>' : ''}` : '';
  return `${item.slice(0, Math.max(0, room - CUT.length - closing.length))}${closing}${CUT}`;
}

/**
 * The comments, each at most maxLength characters. Sections are packed in order; a section that
 * does not fit continues in the next comment under its heading again.
 */
export function renderComments(plan: Plan, options: CommentOptions = {}): string[] {
  const maxLength = options.maxLength ?? COMMENT_LIMIT;
  // Room for the longest header a comment could get.
  const budget = maxLength - header(plan.stack, 9999, 9999, options.runUrl).length - '\n\n'.length - '\n'.length;
  const bodies: string[][] = [[]];
  let used = 0;
  const place = (text: string, separator: string): boolean => {
    const cost = (used === 0 ? 0 : separator.length) + text.length;
    if (used + cost > budget) return false;
    bodies[bodies.length - 1].push(used === 0 ? text : `${separator}${text}`);
    used += cost;
    return true;
  };
  const newComment = () => {
    bodies.push([]);
    used = 0;
  };
  for (const section of sections(plan)) {
    // A heading is placed together with its first item, never alone at the end of a comment.
    let heading: string | undefined = section.heading;
    const put = (item: string): boolean => {
      const text = heading === undefined ? item : item ? `${heading}${section.joiner}${item}` : heading;
      if (!place(text, heading === undefined ? section.joiner : '\n\n')) return false;
      heading = undefined;
      return true;
    };
    for (const item of section.items.length > 0 ? section.items : ['']) {
      if (put(item)) continue;
      newComment();
      heading = section.heading.startsWith('#') ? `${section.heading}${CONTINUED}` : section.heading;
      if (put(item)) continue;
      const head = `${heading}${section.joiner}`;
      place(`${head}${fitted(item, budget - head.length)}`, '');
      heading = undefined;
    }
  }
  const total = bodies.length;
  return bodies.map((body, i) => `${header(plan.stack, i + 1, total, options.runUrl)}\n\n${body.join('')}\n`);
}
