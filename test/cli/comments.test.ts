import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

describe('pull-request comments from plan', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('splits a 2,000-resource plan into numbered comments, each under 65,536 characters, with the run link', async () => {
    const components = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`site_${i}`, infra(`Site ${i}`)]));
    const file = writeConfig(world, configWith({ tenantform_infra_component: components }), 'big.tf.json');
    const github = { GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/infra', GITHUB_RUN_ID: '4711' };
    const r = await run(world, ['plan', '-config', file, '-format=markdown', '-comments-dir=comments', '-detailed-exitcode'], github);
    expect(r.code).toBe(2);
    const files = readdirSync(join(world.dir, 'comments')).sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]));
    expect(files.length).toBeGreaterThan(1);
    expect(r.stderr).toContain(`Wrote ${files.length} pull-request comments to comments.`);
    const comments = files.map((f) => readFileSync(join(world.dir, 'comments', f), 'utf8'));
    comments.forEach((comment, i) => {
      expect(comment.length).toBeLessThan(65_536);
      expect(comment).toContain(`<!-- tenantform-plan stack=big part=${i + 1} -->`);
      expect(comment).toContain(`## tenantform plan for stack \`big\` (comment ${i + 1} of ${files.length})`);
      expect(comment).toContain('Planned by [this CI run](https://github.com/acme/infra/actions/runs/4711).');
    });
    expect(comments[0]).toContain('**Plan:** 2000 to add, 0 to change, 0 to destroy.');
    const all = comments.join('\n');
    for (let i = 0; i < 2000; i++) expect(all).toContain(`<code>tenantform_infra_component.site_${i}</code> will be created`);
    expect(r.stdout).toContain(comments[comments.length - 1].trimEnd());
  }, 120_000);

  it('a plan without changes gives one comment that says so', async () => {
    const file = writeConfig(world, configWith({}), 'empty.tf.json');
    const r = await run(world, ['plan', '-config', file, '-format=markdown', '-comments-dir=empty-comments']);
    expect(r.code).toBe(0);
    expect(readdirSync(join(world.dir, 'empty-comments'))).toEqual(['comment-1.md']);
    expect(readFileSync(join(world.dir, 'empty-comments', 'comment-1.md'), 'utf8')).toContain('**No changes.** Your configuration matches the platform.');
  });
});
