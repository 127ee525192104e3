/**
 * docs/language.md says which top-level blocks tenantform's own plan carries out and which it
 * refuses by name: the page and the code agree, and each refused block is refused, named.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CARRIED_OUT_BLOCKS, parseConfiguration, TERRAFORM_BLOCKS } from './config';

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'language.md'), 'utf8').replace(/\s+/g, ' ');

/** The backticked names of the sentence that starts with `opening`, up to `closing`. */
function namesBetween(opening: string, closing: string): string[] {
  const start = page.indexOf(opening);
  const end = page.indexOf(closing, start);
  expect(start >= 0 && end > start ? 'found' : `docs/language.md no longer says "${opening} … ${closing}"`).toBe('found');
  return [...page.slice(start, end).matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
}

describe('docs/language.md and the code', () => {
  it('names as refused exactly the blocks the code refuses by name', () => {
    const refused = namesBetween('the top-level blocks', 'and any top-level name');
    expect([...refused].sort()).toEqual([...TERRAFORM_BLOCKS].sort());
  });

  it('describes each block of the language it carries out beyond resources, data, variables, locals and outputs', () => {
    for (const block of ['moved', 'removed', 'import', 'check']) {
      expect(CARRIED_OUT_BLOCKS.has(block)).toBe(true);
      expect(page).toContain(`\`${block}\` blocks`);
    }
  });

  it.each([...TERRAFORM_BLOCKS])('refuses a "%s" block by name, as the page says', (block) => {
    const { configuration, diagnostics } = parseConfiguration({ [block]: { x: {} } }, { file: 'main.tf.json', stack: 'main' });
    expect(configuration).toBeUndefined();
    expect(diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ severity: 'error', summary: `Unsupported block type "${block}"` })]));
  });
});
