import { marked } from 'marked';

/**
 * What a reviewer sees of markdown rendered as GitHub renders it (GitHub-flavoured, tables and
 * HTML), before unfolding anything: a folded section shows its summary alone. One line per
 * heading, paragraph, list item, quote line or table row; the first `lines` of them.
 */
export function firstScreen(markdown: string, lines: number): string[] {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return html
    .replace(/<details>\s*<summary>([\s\S]*?)<\/summary>[\s\S]*?<\/details>/g, '<p>$1</p>')
    .replace(/\n/g, ' ')
    .replace(/<\/(p|tr|h\d|li|blockquote)>/g, '\n')
    .replace(/<[^>]+>/g, ' ')
    .split('\n')
    .map((l) =>
      l
        .replace(/\s+/g, ' ')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
        .trim(),
    )
    .filter(Boolean)
    .slice(0, lines);
}
