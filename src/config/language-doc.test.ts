/**
 * docs/language.md says which top-level blocks tenantform's own plan carries out and which it
 * refuses by name: the page and the code agree, and each refused block is refused, named.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CARRIED_OUT_BLOCKS, CARRIED_OUT_META, parseConfiguration, TERRAFORM_BLOCKS, UNSUPPORTED_META } from './config';
import { BLOCK_ARGUMENTS, NOT_CARRIED_OUT } from './block-arguments';

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

  /** The table row of a block: its carried out and refused arguments, as the page lists them. */
  const row = (block: string): { carried: string[]; refused: string[] } => {
    const line = readFileSync(join(__dirname, '..', '..', 'docs', 'language.md'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`| ${block} |`));
    expect(line ?? `docs/language.md has no row for ${block}`).toMatch(/^\|/);
    const [, , carried, refused] = line!.split('|');
    const names = (cell: string) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort();
    return { carried: names(carried), refused: names(refused) };
  };

  it.each(['variable', 'output', 'lifecycle'] as const)('lists the arguments of a %s block the code carries out and refuses', (block) => {
    const refused: string[] = [...NOT_CARRIED_OUT[block]].sort();
    expect(row(block)).toEqual({ carried: (BLOCK_ARGUMENTS[block] as readonly string[]).filter((a) => !refused.includes(a)).sort(), refused });
  });

  it('lists the meta-arguments of a resource the code carries out and refuses', () => {
    expect(row('resource and data (meta-arguments)')).toEqual({ carried: [...CARRIED_OUT_META].sort(), refused: [...UNSUPPORTED_META].sort() });
  });

  const TENANT = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
  const withResource = (extra: Record<string, unknown>) => ({
    provider: { tenantform: [{}] },
    resource: {
      tenantform_infra_component: { site: { owner_tenant_id: TENANT, name: 'S', url: 'https://s.example.com', capabilities: ['backup'], ...extra } },
    },
  });
  it.each([
    ...UNSUPPORTED_META.map((m) => [m, withResource({ [m]: [{}] }), 'tenantform_infra_component.site']),
    ...NOT_CARRIED_OUT.lifecycle.map((m) => [`lifecycle.${m}`, withResource({ lifecycle: { [m]: [] } }), 'tenantform_infra_component.site']),
    ...NOT_CARRIED_OUT.output.map((m) => [m, { output: { o: { value: 1, [m]: [] } } }, 'output.o']),
    ...NOT_CARRIED_OUT.variable.map((m) => [m, { variable: { v: { default: 1, [m]: true } } }, 'var.v']),
  ] as Array<[string, Record<string, unknown>, string]>)('refuses "%s" by name, as the page says', (name, doc, address) => {
    const { diagnostics } = parseConfiguration(doc, { file: 'main.tf.json', stack: 'main' });
    expect(diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ severity: 'error', address, summary: `"${name}" is not supported` })]));
  });
});
