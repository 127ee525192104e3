import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { appSources } from './app-sources';

describe('the sources of a cdktf app', () => {
  let dir: string;
  const write = (...files: string[]) => {
    for (const [file, text = ''] of files.map((f) => f.split(':'))) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
  };
  const sources = (app: string | undefined, language?: string) =>
    appSources({ dir, app, language, generated: [join(dir, 'cdktf.out'), join(dir, '.gen')] })
      .map((f) => relative(dir, f))
      .sort();
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tenantform-app-sources-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are the app entry and the modules it imports, as TypeScript and Node resolve them', () => {
    write(
      "main.ts:import { naming } from './lib/naming.js';\nimport './lib';",
      'lib/naming.ts:export const naming = 1;',
      'lib/index.ts',
      'main.test.ts',
      'plan-note.mjs',
      'jest.config.js',
      'unused.ts',
    );
    expect(sources('npx ts-node main.ts', 'typescript')).toEqual(['lib/index.ts', 'lib/naming.ts', 'main.ts']);
  });

  it('are, for another language, its files outside tests, configuration and generated code', () => {
    write('main.py', 'stacks/customers.py', 'test_main.py', 'tests/test_stack.py', 'plan-note.mjs', 'cdktf.out/stacks/x.py', '.gen/providers.py');
    expect(sources('pipenv run python main.py', 'python')).toEqual(['main.py', 'stacks/customers.py']);
  });
});
