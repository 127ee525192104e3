/**
 * The HCL examples of the reference pages (docs/resources/, generated from the declarations) are
 * one configuration: pasted together into a `.tf` file, terraform applies them through the
 * provider against the platform, and plans nothing after; each page's import block then adopts
 * what was applied.
 */
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORACLE_STATE, REQUIRED_PROVIDERS, startOracle, type Oracle } from '../helpers/oracle';
import { ROOT } from './helpers';
import { run } from '../cli/helpers';

const DOCS = join(ROOT, 'docs', 'resources');
const PAGES = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md' && f !== 'provider.md');

/** Each page's HCL under a heading (its first block), by page; pages without one left out. */
function hclUnder(heading: string): Map<string, string> {
  const blocks = PAGES.map((page) => {
    const section = readFileSync(join(DOCS, page), 'utf8')
      .split(/^## /m)
      .find((s) => s.startsWith(heading));
    return [page, section ? (/```hcl\n([\s\S]*?)```/.exec(section)?.[1] ?? '') : undefined] as const;
  });
  return new Map(blocks.filter((b): b is readonly [string, string] => b[1] !== undefined));
}

/** Every page's HCL example, by page. */
const examples = () => hclUnder('Example (HCL)');

let oracle: Oracle;
beforeAll(async () => {
  // What the examples refer to and no page declares: the partner they are written under.
  oracle = await startOracle('docs-apply', {
    terraform: REQUIRED_PROVIDERS,
    provider: { tenantform: [{}] },
    data: { tenantform_tenant: { northwind: { name: 'Northwind Partner' } } },
  });
}, 120_000);
afterAll(() => oracle?.world.close());

test('terraform applies every reference page example together, then plans no changes; tenantform reads the same folder natively and agrees', async () => {
  const pages = examples();
  expect([...pages.keys()]).toEqual(PAGES);
  for (const [page, hcl] of pages) expect(hcl.trim().length > 0 ? page : `${page} has no HCL example`).toBe(page);
  writeFileSync(join(oracle.world.dir, 'docs.tf'), [...pages.values()].join('\n'));
  const applied = await oracle.terraform('apply', '-auto-approve');
  expect(applied.output).not.toContain('Error');
  expect(applied.code).toBe(0);
  const resources = [...pages.values()].join('\n').match(/^resource "/gm) ?? [];
  expect(applied.output).toContain(`Apply complete! Resources: ${resources.length} added, 0 changed, 0 destroyed.`);
  const again = await oracle.terraform('plan', '-detailed-exitcode');
  expect(again.output).toContain('No changes.');
  expect(again.code).toBe(0);

  // tenantform reads the same folder natively and agrees: no change, every object in sync, an empty comment.
  const folder = ['--config', oracle.world.dir];
  const native = await run(oracle.world, ['plan', ...folder, '--detailed-exitcode']);
  expect(native.stderr).not.toContain('Error');
  expect(native.stdout).toContain('No changes.');
  expect(native.code).toBe(0);
  const drift = await run(oracle.world, ['drift', ...folder, '--format', 'json', '--ignore-unmanaged']);
  expect(drift.code).toBe(0);
  const report = JSON.parse(drift.stdout) as { resources: Array<{ address: string; status: string }> };
  expect(report.resources.filter((r) => r.status !== 'in_sync')).toEqual([]);
  expect(report.resources.length).toBe(resources.length);
  const comment = await run(oracle.world, ['plan', ...folder, '--format', 'markdown']);
  expect(comment.stdout).toContain('**No changes.**');
}, 300_000);

test("each resource page's import block adopts the applied object into an empty state: everything to import, nothing to add or change", async () => {
  const state = JSON.parse(readFileSync(join(oracle.world.dir, ORACLE_STATE), 'utf8')) as {
    resources: Array<{ mode: string; type: string; name: string; instances: Array<{ attributes: { id: string } }> }>;
  };
  const ids = new Map(state.resources.filter((r) => r.mode === 'managed').map((r) => [`${r.type}.${r.name}`, r.instances[0].attributes.id]));
  // The platform has no read of an event subscription: an import records only its id, as its page says.
  const subscription = 'event_subscription.md';
  expect(readFileSync(join(DOCS, subscription), 'utf8')).toContain('`terraform import` records only the id');
  const adoptable = [...hclUnder('Import')].filter(([page]) => page !== subscription);
  ids.delete('tenantform_event_subscription.tenant_events');
  const blocks = adoptable.map(([, hcl]) => {
    const to = /to = (\S+)/.exec(hcl)![1];
    expect(ids.has(to) ? to : `${to} was not applied`).toBe(to);
    return hcl.replace('<id>', ids.get(to)!);
  });
  expect(blocks).toHaveLength(ids.size);
  writeFileSync(join(oracle.world.dir, 'imports.tf'), blocks.join('\n'));
  renameSync(join(oracle.world.dir, ORACLE_STATE), join(oracle.world.dir, 'applied.tfstate'));
  const plan = await oracle.terraform('plan');
  expect(plan.output).not.toContain('Error');
  // Everything imported as it is; only the subscription, not imported, is planned anew.
  expect(plan.output).toContain(`Plan: ${ids.size} to import, 1 to add, 0 to change, 0 to destroy.`);
  expect(plan.output).toContain('# tenantform_event_subscription.tenant_events will be created');
}, 300_000);
