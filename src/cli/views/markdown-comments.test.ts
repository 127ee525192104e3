import { manyResourcesPlan, mixedPlan, noChangesPlan } from './fixtures';
import { COMMENT_LIMIT, commentMarker, renderComments } from './markdown-comments';

/** Complete markdown: every <details> closed and every fence paired. */
function expectComplete(comment: string): void {
  expect(comment.match(/<details>/g)?.length ?? 0).toBe(comment.match(/<\/details>/g)?.length ?? 0);
  expect((comment.match(/^`{3,}/gm)?.length ?? 0) % 2).toBe(0);
}

describe('pull-request comments', () => {
  it('has a title naming the stack, a link to the run and the marker', () => {
    const [comment, ...rest] = renderComments(mixedPlan, { runUrl: 'https://ci.example.com/runs/7' });
    expect(rest).toEqual([]);
    expect(comment.split('\n').slice(0, 4)).toEqual([
      commentMarker('production', 1),
      '## tenantform plan for stack `production`',
      '',
      'Planned by [this CI run](https://ci.example.com/runs/7).',
    ]);
    expect(comment).toContain('**Plan:** 2 to add, 1 to change, 2 to destroy.');
    expectComplete(comment);
  });

  it('says so when nothing changes', () => {
    const [comment] = renderComments(noChangesPlan);
    expect(comment).toContain('**No changes.** Your configuration matches the platform.');
  });

  it('shows output changes', () => {
    const plan = { ...mixedPlan, outputChanges: [{ name: 'url', action: 'update' as const, before: 'a', after: 'b', sensitive: false }] };
    expect(renderComments(plan)[0]).toContain('### Changes to Outputs\n\n```diff\n  ~ url = "a" -> "b"\n```');
  });

  it('fits a 2,000-resource plan of alike changes in one comment: a row and an example per group, every destroy named', () => {
    const plan = manyResourcesPlan(2000);
    const comments = renderComments(plan);
    expect(comments).toHaveLength(1);
    const [comment] = comments;
    expectComplete(comment);
    const rows = [...comment.matchAll(/^\| (create|update in-place|destroy) \| ([\d,]+) × `tenantform_tenant_setting`( \(lock\))? \|$/gm)];
    expect(rows.map((r) => r[1])).toEqual(['create', 'update in-place', 'destroy']);
    expect(rows.reduce((n, r) => n + Number(r[2].replace(/,/g, '')), 0)).toBe(2000);
    expect(comment).toMatch(/_… and 1,\d{3} more `tenantform_tenant_setting` to create like it/);
    // What is destroyed is named, each one, in the warning that leads the comment.
    for (const c of plan.changes.filter((x) => x.action === 'delete')) expect(comment).toContain(`> - \`${c.address}\` will be destroyed`);
  });

  it('splits a 2,000-resource plan of distinct changes into numbered complete comments, each under the limit, losing nothing', () => {
    const plan = manyResourcesPlan(2000, { distinct: true });
    const comments = renderComments(plan);
    expect(comments.length).toBeGreaterThan(1);
    comments.forEach((comment, i) => {
      expect(comment.length).toBeLessThanOrEqual(COMMENT_LIMIT);
      expect(
        comment.startsWith(`${commentMarker('production', i + 1)}\n## tenantform plan for stack \`production\` (comment ${i + 1} of ${comments.length})`),
      ).toBe(true);
      expectComplete(comment);
    });
    const all = comments.join('\n');
    for (const c of plan.changes) {
      expect(all.split(`| \`${c.address}\` |`).length - 1).toBe(1);
      expect(all.split(`<code>${c.address}</code>`).length - 1).toBe(1);
    }
    // A table continued in the next comment gets its header again.
    const continued = comments.filter((c) => c.includes('| Action | Resource |')).length;
    expect(continued).toBeGreaterThan(1);
    expect(comments.some((c) => c.includes('### Changes (continued)'))).toBe(true);
    // No heading is left alone at the end of a comment.
    for (const c of comments) expect(c.trimEnd()).not.toMatch(/(###[^\n]*|\| --- \| --- \|)$/);
  });

  it('cuts an entry that alone is longer than a comment, saying so', () => {
    const comments = renderComments(manyResourcesPlan(3), { maxLength: 420 });
    for (const c of comments) {
      expect(c.length).toBeLessThanOrEqual(420);
      expectComplete(c);
    }
    expect(comments.join('\n')).toContain('longer than a comment can be');
  });
});
