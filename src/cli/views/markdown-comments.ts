import type { Plan } from '../../plans/model';
import { fencedBlock, inlineCode, markdownParts } from './markdown';
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
  const parts = markdownParts(plan);
  const out: Section[] = [{ heading: parts.headline, joiner: '\n', items: [] }];
  if (parts.bannerItems.length > 0) out.push({ heading: parts.bannerHead, joiner: '\n', items: parts.bannerItems });
  if (parts.tableRows.length > 0) out.push({ heading: '| Action | Resource |\n| --- | --- |', joiner: '\n', items: parts.tableRows });
  if (parts.outputs.length > 0) out.push({ heading: '### Changes to Outputs', joiner: '\n\n', items: [fencedBlock('diff', outputLines(parts.outputs))] });
  if (parts.drift.length > 0) out.push({ heading: '### Changed outside tenantform', joiner: '\n\n', items: parts.drift });
  if (parts.details.length > 0) out.push({ heading: '### Changes', joiner: '\n\n', items: parts.details });
  if (parts.diagnostics.length > 0) out.push({ heading: '### Diagnostics', joiner: '\n\n', items: [parts.diagnostics.join('\n')] });
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
