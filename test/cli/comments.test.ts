import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

describe('pull-request comments from plan', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('fits a 2,000-resource plan of alike creates in one comment under 65,536 characters: a row with the count, one example, the run link', async () => {
    const components = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`site_${i}`, infra(`Site ${i}`)]));
    const file = writeConfig(world, configWith({ tenantform_infra_component: components }), 'big.tf.json');
    const github = { GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/infra', GITHUB_RUN_ID: '4711' };
    const r = await run(world, ['plan', '-config', file, '-format=markdown', '-comments-dir=comments', '-detailed-exitcode'], github);
    expect(r.code).toBe(2);
    expect(readdirSync(join(world.dir, 'comments'))).toEqual(['comment-1.md']);
    expect(r.stderr).toContain('Wrote 1 pull-request comment to comments.');
    const comment = readFileSync(join(world.dir, 'comments', 'comment-1.md'), 'utf8');
    expect(comment.length).toBeLessThan(65_536);
    expect(comment).toContain('<!-- tenantform-plan stack=big part=1 -->');
    expect(comment).toContain('Planned by [this CI run](https://github.com/acme/infra/actions/runs/4711).');
    expect(comment).toContain('**Plan:** 2000 to add, 0 to change, 0 to destroy.');
    expect(comment).toContain('| create | 2,000 × `tenantform_infra_component` |');
    expect(comment).toContain('<code>tenantform_infra_component.site_0</code> will be created');
    expect(comment).toContain('_… and 1,999 more `tenantform_infra_component` to create like it');
    expect(r.stdout).toContain(comment.trimEnd());
  }, 120_000);

  it('a plan without changes gives one comment that says so', async () => {
    const file = writeConfig(world, configWith({}), 'empty.tf.json');
    const r = await run(world, ['plan', '-config', file, '-format=markdown', '-comments-dir=empty-comments']);
    expect(r.code).toBe(0);
    expect(readdirSync(join(world.dir, 'empty-comments'))).toEqual(['comment-1.md']);
    expect(readFileSync(join(world.dir, 'empty-comments', 'comment-1.md'), 'utf8')).toContain('**No changes.** Your configuration matches the platform.');
  });
});
