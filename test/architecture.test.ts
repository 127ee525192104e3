import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The folders of `src/` and which folders each may import, as docs/architecture.md draws them.
 * Data flows one way (configuration, refresh, plan, apply, views), so the table has no cycle:
 * a folder that needs something from a folder above it has found a seam in the wrong place.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  // errors.ts, diagnostics.ts, plain-json.ts: the vocabulary every layer shares.
  '.': [],
  // How connections are made (proxies, trusted certificates): below everything that opens one.
  // Of tenantform it knows only how an input file is read (input-file.ts).
  network: ['.'],
  // A bundle's stack traces through its source map: nothing of tenantform.
  bundle: [],
  // The platform client depends on nothing of tenantform but its connections; the emulator only on its schemas.
  api: ['network'],
  emulator: ['api'],
  resources: ['.', 'api'],
  cdk: ['.', 'resources'],
  expressions: ['.', 'resources'],
  graph: ['.'],
  state: ['.', 'resources'],
  backends: ['.', 'state', 'network'],
  config: ['.', 'resources', 'expressions', 'graph', 'state', 'backends'],
  // The plan as data (its model and its file) sits below the engine that makes and applies it.
  plans: ['.', 'resources', 'state'],
  engine: ['.', 'api', 'resources', 'graph', 'state', 'backends', 'config', 'plans'],
  export: ['.', 'api', 'resources', 'state'],
  drift: ['.', 'api', 'resources', 'state', 'config', 'plans', 'engine', 'export'],
  provider: ['.', 'api', 'resources'],
  'cli/views': ['.', 'api', 'resources', 'graph', 'state', 'config', 'plans', 'drift'],
  cli: ['.', 'api', 'emulator', 'resources', 'state', 'backends', 'config', 'engine', 'plans', 'export', 'drift', 'provider', 'cli/views'],
};

/**
 * Entry points that gather the layers for a reader outside: the package's cdktf library, the
 * command as the package's bundle runs it, and the single executable (the command and the provider).
 */
const ENTRY_POINTS = new Set(['index.ts', 'command.ts', 'executable.ts']);

/** Test support beside the code it drives (it starts the emulator); kept out of the package. */
const isTestSupport = (file: string): boolean => /(\.test|\/testing|\/fixtures)\.ts$/.test(file);

const SRC = resolve(__dirname, '..', 'src');

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (entry.endsWith('.ts') && !isTestSupport(path)) out.push(path);
  }
  return out;
}

function folderOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  if (parts.length === 1) return '.';
  if (parts[0] === 'cli' && parts[1] === 'views') return 'cli/views';
  return parts[0];
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this spelling
    }
  }
  return undefined;
}

interface Edge {
  readonly file: string;
  readonly specifier: string;
  readonly from: string;
  readonly to: string;
  readonly target: string;
}

function edges(): Edge[] {
  const found: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    if (ENTRY_POINTS.has(relative(SRC, file))) continue;
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of info.importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveImport(file, specifier);
      // package.json (the version) and other files outside src/ are not layers
      if (target === undefined || !target.startsWith(SRC + '/') || !target.endsWith('.ts')) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      found.push({ file: relative(SRC, file), specifier, from, to, target });
    }
  }
  return found;
}

describe('the folders of src/', () => {
  const all = edges();
  const between = all.filter((e) => e.from !== e.to);

  it('each folder imports only the folders below it', () => {
    const wrong = between
      .filter((e) => !(MAY_IMPORT[e.from] ?? []).includes(e.to))
      .map((e) => `src/${e.file} imports ${e.specifier} (${e.from} may import: ${(MAY_IMPORT[e.from] ?? []).join(', ') || 'nothing'})`);
    expect(wrong).toEqual([]);
  });

  it('every folder has its place in the table', () => {
    const folders = new Set(
      sourceFiles(SRC)
        .filter((f) => !ENTRY_POINTS.has(relative(SRC, f)))
        .map(folderOf),
    );
    expect([...folders].filter((f) => !(f in MAY_IMPORT))).toEqual([]);
  });

  it('the table itself has no cycle', () => {
    const done = new Set<string>();
    const visiting: string[] = [];
    const cycles: string[] = [];
    const visit = (folder: string): void => {
      if (done.has(folder)) return;
      if (visiting.includes(folder)) {
        cycles.push([...visiting.slice(visiting.indexOf(folder)), folder].join(' -> '));
        return;
      }
      visiting.push(folder);
      for (const next of MAY_IMPORT[folder] ?? []) visit(next);
      visiting.pop();
      done.add(folder);
    };
    for (const folder of Object.keys(MAY_IMPORT)) visit(folder);
    expect(cycles).toEqual([]);
  });

  it('no file of the package imports test support', () => {
    expect(all.filter((e) => isTestSupport(e.target)).map((e) => `src/${e.file} imports ${e.specifier}`)).toEqual([]);
  });

  it('the table names no import that is not made (each permission is in use)', () => {
    const used = new Set(between.map((e) => `${e.from}>${e.to}`));
    const unused = Object.entries(MAY_IMPORT).flatMap(([from, tos]) => tos.filter((to) => !used.has(`${from}>${to}`)).map((to) => `${from} -> ${to}`));
    expect(unused).toEqual([]);
  });
});

describe('a module and the folder of its parts', () => {
  // The apply run (engine/apply.ts) hands each node's work to engine/apply/, the planner its steps'
  // helpers to engine/planner/: a part is given what it needs, and never reaches back to its whole.
  it('no file in a folder imports the module beside the folder that bears its name', () => {
    const wrong = edges()
      .filter((e) => relative(SRC, e.target) === `${dirname(e.file)}.ts`)
      .map((e) => `src/${e.file} imports ${e.specifier}`);
    expect(wrong).toEqual([]);
  });
});

/**
 * Each file's imports of other modules of src/: every one (`withTypes`), or only those that load
 * a module when it runs (not `import type`, nor an import of types only).
 */
function importsOf(file: string, withTypes: boolean): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const targets: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    if (!withTypes && typesOnly(statement)) continue;
    const target = resolveImport(file, specifier.text);
    if (target !== undefined && target.startsWith(SRC + '/') && target.endsWith('.ts')) targets.push(target);
  }
  return targets;
}

/** Whether an import or export brings in types alone, erased when the module runs. */
function typesOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  const clause = statement.importClause;
  if (clause?.isTypeOnly) return true;
  const named = clause?.namedBindings;
  return (
    clause !== undefined &&
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

/** The modules that reach themselves back through the imports `readImports` reads, one line per cycle (Tarjan's strongly connected components). */
function importCycles(readImports: (file: string) => string[]): string[] {
  const files = sourceFiles(SRC);
  const graph = new Map(files.map((f) => [f, readImports(f)]));
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(relative(SRC, w));
    } while (w !== v);
    // A component of more than a module is a cycle.
    if (component.length > 1) cycles.push(component.sort().join(' <-> '));
  };
  for (const f of files) if (!index.has(f)) connect(f);
  return cycles;
}

describe('the modules of src/', () => {
  it('no module loads, when it runs, a module that loads it back', () => {
    expect(importCycles((file) => importsOf(file, false))).toEqual([]);
  });

  // A model a folder's parts share sits below them: a part that needs even a type of the module
  // that gathers them has found a seam in the wrong place.
  it('no module imports, even only for its types, a module that imports it back', () => {
    expect(importCycles((file) => importsOf(file, true))).toEqual([]);
  });
});
