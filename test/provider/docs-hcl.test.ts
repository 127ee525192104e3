/**
 * The HCL example of every reference page (docs/resources/, generated from the declarations) is
 * valid HCL written as `terraform fmt` writes it, so a user can paste it into a `.tf` file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTerraform, ROOT, run } from './helpers';

/** `terraform fmt` leaves every .tf file of the folder as it is. */
async function expectFormatted(dir: string): Promise<void> {
  const checked = await run('terraform', ['fmt', '-check', '-diff', '-no-color', '.'], {
    cwd: dir,
    env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null' },
  });
  expect(checked.stdout).toBe('');
  expect(checked.code).toBe(0);
}

test('every reference page has an HCL example that terraform fmt leaves as it is', async () => {
  requireTerraform();
  const docs = join(ROOT, 'docs', 'resources');
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-docs-hcl-'));
  try {
    const pages = readdirSync(docs).filter((f) => f.endsWith('.md') && f !== 'README.md' && f !== 'provider.md');
    for (const page of pages) {
      const example = /```hcl\n([\s\S]*?)```/.exec(readFileSync(join(docs, page), 'utf8'));
      expect(example ? page : `${page} has no HCL example`).toBe(page);
      writeFileSync(join(dir, page.replace(/\.md$/, '.tf')), example?.[1] ?? '');
    }
    await expectFormatted(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every HCL block of the actions page (docs/actions.md) is one terraform fmt leaves as it is', async () => {
  requireTerraform();
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-docs-actions-'));
  try {
    const blocks = [...readFileSync(join(ROOT, 'docs', 'actions.md'), 'utf8').matchAll(/```hcl\n([\s\S]*?)```/g)].map((m) => m[1]);
    // The page's first example, and one per action.
    expect(blocks.length).toBeGreaterThan(4);
    blocks.forEach((block, i) => writeFileSync(join(dir, `block${i}.tf`), block));
    await expectFormatted(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
