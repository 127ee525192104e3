import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics';
import { inputVariables } from './variables';

/** Variable files are read as Terraform reads them: what it refuses is refused, naming the file and the line. */
describe('--var-file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tenantform-varfile-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const read = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    const diagnostics: Diagnostic[] = [];
    const values = inputVariables(
      [
        ['region', { default: 'default' }],
        ['sizes', { default: [] }],
      ],
      { given: [{ kind: 'file', text: name }], env: {}, cwd: dir },
      diagnostics,
    );
    return { region: values.get('region')?.value, sizes: values.get('sizes')?.value, diagnostics };
  };

  it.each([
    ['an assignment without a value', 'region =\n', 'line 1, region: expected a value after "="'],
    ['a line that assigns nothing', 'region "eu"\n', 'line 1: expected an assignment (name = value), found "region \\"eu\\""'],
    ['a string left open', 'region = "eu\n', 'line 1, region: A quoted string cannot span lines'],
  ])('refuses %s, naming the file and the line; the default is not used instead', (_what, text, expected) => {
    const r = read('bad.tfvars', text);
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'error', detail: expect.stringContaining(`${join(dir, 'bad.tfvars')}: ${expected}`) })]);
  });

  it('reads comments, values over several lines and blank lines', () => {
    const r = read('good.tfvars', '/* the region\n   of the sites */\n# and their sizes\n\nregion = "eu" // here\nsizes = [\n  1,\n  2,\n]\n');
    expect(r.diagnostics).toEqual([]);
    expect(r).toMatchObject({ region: 'eu', sizes: [1, 2] });
  });

  it('warns about a value for a variable the configuration does not declare, as Terraform does', () => {
    const r = read('shared.tfvars', 'region = "eu"\nteam = "ops"\n');
    expect(r.region).toBe('eu');
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', summary: 'Value for undeclared variable', address: 'var.team' })]);
  });
});

describe('variable blocks', () => {
  const declare = (body: Record<string, unknown>) => {
    const diagnostics: Diagnostic[] = [];
    const values = inputVariables([['token', { default: 'abc', ...body }]], { given: [], env: {}, cwd: '.' }, diagnostics);
    return { token: values.get('token'), diagnostics };
  };

  it('reads a bool argument as Terraform converts it: "true" is true', () => {
    expect(declare({ sensitive: 'true' }).token?.sensitive).toBe(true);
    expect(declare({ sensitive: false, nullable: 'false' }).token?.sensitive).toBe(false);
  });

  it.each([
    [{ sensitive: 'yes' }, 'sensitive', 'true or false'],
    [{ nullable: null }, 'nullable', 'true or false'],
    [{ description: null }, 'description', 'a string'],
  ])('refuses %j, naming the argument', (body, argument, expected) => {
    const r = declare(body);
    expect(r.token).toBeUndefined();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ summary: 'Unsuitable value type', address: 'var.token', path: [argument], detail: `"${argument}" must be ${expected}.` }),
    ]);
  });
});
