import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The source files of a cdktf or CDK Terrain app: what a synthesized stack is made from. A file
 * next to the app that its synthesis never reads (tests, a tool's configuration, a CI script)
 * is not one, so that editing it does not make the stack look stale.
 */

const SCRIPT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|java|kt|cs)$/;
/** cdktf.json's `language`: a script of another language beside the app (a CI helper in `.mjs`) is not the app's. */
const SOURCE_OF_LANGUAGE: Readonly<Record<string, RegExp>> = {
  typescript: /\.(ts|tsx|mts|cts)$/,
  javascript: /\.(js|jsx|mjs|cjs)$/,
  python: /\.py$/,
  go: /\.go$/,
  java: /\.(java|kt)$/,
  csharp: /\.cs$/,
};
const SKIPPED = new Set(['node_modules', 'dist', 'build', 'bin', 'obj', 'target', '__pycache__', 'venv', '__tests__', 'test', 'tests']);
/** Tests (`x.test.ts`, `x_test.go`, `test_x.py`), declarations and tools' configuration (`jest.config.js`). */
const NOT_APP = /(\.|_)(test|spec)\.[^.]+$|^test_.*\.py$|\.d\.[mc]?ts$|\.config\.[^.]+$|^\.[^/]*rc\.[^.]+$/;

/**
 * The app's sources. For an app run as JavaScript or TypeScript (`node main.js`, `npx ts-node
 * main.ts`), the entry named in cdktf.json's `app` and the local modules it imports,
 * transitively. Otherwise (another language, or no entry found), every source file of the
 * project, generated code, dependencies, tests and configuration files left out.
 */
export function appSources(project: { dir: string; app?: string; language?: string; generated: readonly string[] }): string[] {
  const { dir, app } = project;
  const entries = (app ?? '')
    .split(/\s+/)
    .map((word) => resolve(dir, word.replace(/^['"]|['"]$/g, '')))
    .filter((file) => SCRIPT.test(file) && isFile(file));
  if (entries.length > 0) return importedFrom(entries);
  const language = project.language !== undefined && Object.hasOwn(SOURCE_OF_LANGUAGE, project.language) ? SOURCE_OF_LANGUAGE[project.language] : SOURCE;
  return projectSources(dir, language, project.generated);
}

/** The entries and every relative module they import, transitively. */
function importedFrom(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const found = resolveModule(resolve(dirname(file), specifier));
      if (found) pending.push(found);
    }
  }
  return [...seen];
}

/** `from './x'`, `import './x'`, `import('./x')`, `require('./x')`: the relative specifiers only. */
function relativeImports(text: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((m) => m[1]);
}

/** A specifier as Node and TypeScript find it: as written, with an extension, a `.js` written for a `.ts`, or a folder's index. */
function resolveModule(base: string): string | undefined {
  const extensions = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
  const withoutJs = base.replace(/\.([mc]?)jsx?$/, '');
  const candidates = [
    base,
    ...extensions.map((e) => base + e),
    ...(withoutJs !== base ? extensions.map((e) => withoutJs + e) : []),
    ...extensions.map((e) => join(base, `index${e}`)),
  ];
  return candidates.find(isFile);
}

/** Every source file under `dir`, skipping dependencies, generated code, tests and configuration files. */
function projectSources(dir: string, source: RegExp, generated: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED.has(entry.name) && !generated.includes(path)) walk(path);
      } else if (entry.isFile() && source.test(entry.name) && !NOT_APP.test(entry.name)) {
        found.push(path);
      }
    }
  };
  walk(dir);
  return found;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
