import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AttributePath, Diagnostic, SourcePosition } from '../diagnostics';
import { TenantformError } from '../errors';
import { MAX_DEPTH } from '../expressions';
import { folderErrors } from './errors';
import { MAX_INPUT_BYTES, readInputFile } from '../input-file';
import { isRecord, parsePlainJson, plainObject } from '../plain-json';
import { normalizeHcl } from './hcl';
import { hclConverter } from './hcl-converter';
import { SourceLines } from './source-lines';

/**
 * A folder of Terraform files read as terraform reads its working folder: every `.tf` and
 * `.tf.json` file, in name order, merged into one Terraform JSON document. As terraform does, every
 * problem of every file is found in one reading: a block declared in two files (naming both), an
 * override file, a file that cannot be read or parsed.
 */
export interface TerraformFolder {
  readonly document: Record<string, unknown>;
  /** The file that declares a block: `tenantform_tenant.customer`, `var.region`, `local.names`, `output.ids`. */
  readonly fileOf: (address: string) => string | undefined;
  /** The file that declares a block, and in a `.tf` file the line of the block or of the argument `path` starts at. */
  readonly positionOf: (address: string, path?: AttributePath) => SourcePosition | undefined;
  /** Every problem of the folder's files, each naming its file; the document is not to be evaluated when there is one. */
  readonly problems: readonly Diagnostic[];
}

/** Whether a folder holds Terraform files (`.tf`, `.tf.json`). */
export function holdsTerraformFiles(dir: string): boolean {
  return terraformFiles(dir).length > 0;
}

function terraformFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /\.tf(\.json)?$/.test(name) && statSync(join(dir, name)).isFile())
    .sort();
}

const isOverride = (name: string): boolean => /(^|_)override\.tf(\.json)?$/.test(name);

export async function readTerraformFolder(dir: string): Promise<TerraformFolder> {
  const files = terraformFiles(dir);
  if (files.length === 0) throw folderErrors.empty(dir);
  const merged = new MergedDocument();
  for (const name of files) {
    if (isOverride(name)) merged.refuse(folderErrors.overrideFile(name), name);
    else await readFile(merged, join(dir, name), name);
  }
  return {
    document: merged.document,
    fileOf: (address) => merged.positionOf(address)?.file,
    positionOf: (address, path) => merged.positionOf(address, path),
    problems: merged.problems,
  };
}

/** One file into the merge; what is wrong with it is refused, and the rest of the folder still read. */
async function readFile(merged: MergedDocument, file: string, name: string): Promise<void> {
  let text: string;
  try {
    text = readInputFile(file, MAX_INPUT_BYTES, 'strict utf8');
  } catch (err) {
    return merged.refuse(folderErrors.unreadable(name, (err as Error).message), name);
  }
  if (name.endsWith('.json')) {
    const document = jsonDocument(text, name);
    return 'document' in document ? merged.add(name, document.document) : merged.refuse(document.refused, name);
  }
  const converted = await convertHcl(name, text);
  if (Array.isArray(converted)) {
    for (const { refused, line } of converted) merged.refuse(refused, name, line);
    return;
  }
  const lines = new SourceLines(text);
  const { document, duplicates } = normalizeHcl(converted);
  for (const d of duplicates) merged.refuse(folderErrors.duplicate(d.what, d.address, name, name), name, lines.of(d.address, undefined, 1));
  for (const { address, attribute } of blocksForAttributes(document, text))
    merged.refuse(folderErrors.blockForAttribute(address, attribute, name), name, lines.of(address, attribute));
  merged.add(name, document, lines);
}

/** The blocks of the language a resource or data body may hold; any other name written as a block is an attribute of the kind. */
const BODY_BLOCKS = new Set(['lifecycle', 'precondition', 'postcondition', 'provisioner', 'connection', 'dynamic', 'content']);

/**
 * tenantform's structured values are attributes (`items = [{ ... }]`), and terraform refuses them
 * written as blocks (`items { ... }`). The converter writes both alike, so the file's text tells
 * them apart: a line that opens a block of that name.
 */
function blocksForAttributes(document: Record<string, unknown>, text: string): Array<{ address: string; attribute: string }> {
  const opened = new Set([...text.matchAll(/^[ \t]*([A-Za-z_][\w-]*)[ \t]*\{/gm)].map((m) => m[1]).filter((n) => !BODY_BLOCKS.has(n)));
  const found: Array<{ address: string; attribute: string }> = [];
  if (opened.size === 0) return found;
  for (const mode of ['resource', 'data'] as const) {
    const byType = document[mode];
    if (!isRecord(byType)) continue;
    for (const [type, byName] of Object.entries(byType))
      for (const [name, body] of isRecord(byName) ? Object.entries(byName) : [])
        for (const attribute of isRecord(body) ? Object.keys(body).filter((k) => opened.has(k)) : [])
          found.push({ address: `${mode === 'data' ? 'data.' : ''}${type}.${name}`, attribute });
  }
  return found;
}

function jsonDocument(text: string, name: string): { document: Record<string, unknown> } | { refused: TenantformError } {
  let doc: unknown;
  try {
    doc = parsePlainJson(text);
  } catch (err) {
    return { refused: folderErrors.unreadable(name, (err as Error).message) };
  }
  return isRecord(doc) ? { document: doc } : { refused: folderErrors.unreadable(name, 'the file does not hold a JSON object') };
}

/** One `.tf` file as the converter writes it, or each problem it found in the file. */
async function convertHcl(name: string, text: string): Promise<Record<string, unknown> | Array<{ refused: TenantformError; line?: number }>> {
  const converter = await hclConverter();
  try {
    const converted = await converter.parse(name, text);
    return isRecord(converted) ? converted : {};
  } catch (err) {
    if (err instanceof TenantformError) throw err; // the converter could not start, or stopped on this file twice
    // The converter recurses on nesting; V8's stack ends first, long past any depth the language allows.
    if (err instanceof RangeError && /call stack/i.test(err.message)) return [{ refused: folderErrors.nestedTooDeeplyToRead(name, MAX_DEPTH) }];
    // "parse config: [main.tf:3,7-8: Invalid expression; ... main.tf:5,1-2: ...]": each problem's file, line and column, then what is wrong.
    const reasons = (err as Error).message.replace(/^parse config: \[([^]*)\]$/, '$1');
    const at = new RegExp(`(?:^|\\s)${escaped(name)}:(\\d+),(\\d+)(?:-[\\d,]+)?: `, 'g');
    const starts = [...reasons.matchAll(at)];
    if (starts.length === 0) return [{ refused: folderErrors.unreadable(name, reasons) }];
    return starts.map((m, i) => ({
      refused: folderErrors.unreadable(name, `line ${m[1]}, column ${m[2]}: ${reasons.slice(m.index + m[0].length, starts[i + 1]?.index).trim()}`),
      line: Number(m[1]),
    }));
  }
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The merge of the folder's documents, with the file (and line) each block came from and the problems found. */
class MergedDocument {
  readonly document: Record<string, unknown> = plainObject();
  readonly problems: Diagnostic[] = [];
  private readonly sources = new Map<string, string>();
  private readonly lines = new Map<string, SourceLines>();

  positionOf(address: string, path?: AttributePath): SourcePosition | undefined {
    const block = address.replace(/\[[^\]]*\]$/, '');
    const file = this.sources.get(block);
    if (file === undefined) return undefined;
    const argument = typeof path?.[0] === 'string' ? path[0] : undefined;
    const line = this.lines.get(file)?.of(block, argument);
    return line === undefined ? { file } : { file, line };
  }

  refuse(refused: TenantformError, file: string, line?: number): void {
    this.problems.push({ ...refused.toDiagnostic(), file, ...(line === undefined ? {} : { line }) });
  }

  add(file: string, doc: Record<string, unknown>, lines?: SourceLines): void {
    if (lines) this.lines.set(file, lines);
    for (const [block, value] of Object.entries(doc)) {
      if (block === '//') continue;
      // A problem with a whole block type (a `module` block refused) names the first file that has one.
      if (!this.sources.has(block)) this.sources.set(block, file);
      if (block === 'resource' || block === 'data') this.labelledTwice(file, block, value);
      else if (block === 'variable' || block === 'output' || block === 'module' || block === 'check') this.labelledOnce(file, block, value);
      else if (block === 'locals') this.named(file, 'locals', value, (name) => `local.${name}`, 'local value definition');
      else if (block === 'provider') this.providers(value);
      else if (block === 'terraform') this.terraform(file, value);
      else if (block === 'moved' || block === 'removed' || block === 'import') this.listed(block, value);
      // Not a block of the language: kept (the first one), so that it is refused by name.
      else if (!Object.hasOwn(this.document, block)) this.document[block] = value;
    }
  }

  private holder(key: string, inside: Record<string, unknown> = this.document): Record<string, unknown> {
    if (!isRecord(inside[key])) inside[key] = plainObject();
    return inside[key] as Record<string, unknown>;
  }

  /** Whether the block is declared here first; a second declaration is refused, and the first one kept. */
  private declare(address: string, what: string, file: string): boolean {
    const first = this.sources.get(address);
    if (first === undefined) {
      this.sources.set(address, file);
      return true;
    }
    this.refuse(folderErrors.duplicate(what, address, first, file), file, this.lines.get(file)?.of(address));
    return false;
  }

  private labelledTwice(file: string, block: 'resource' | 'data', value: unknown): void {
    if (!isRecord(value)) return;
    for (const [type, byName] of Object.entries(value)) {
      if (!isRecord(byName)) continue;
      for (const [name, body] of Object.entries(byName)) {
        if (name === '//') continue;
        if (this.declare(`${block === 'data' ? 'data.' : ''}${type}.${name}`, block === 'data' ? 'data source' : 'resource', file))
          this.holder(type, this.holder(block))[name] = body;
      }
    }
  }

  private labelledOnce(file: string, block: 'variable' | 'output' | 'module' | 'check', value: unknown): void {
    const prefix = { variable: 'var', output: 'output', module: 'module', check: 'check' }[block];
    const what = { variable: 'variable declaration', output: 'output definition', module: 'module call', check: 'check block' }[block];
    this.named(file, block, value, (name) => `${prefix}.${name}`, what);
  }

  private named(file: string, block: string, value: unknown, address: (name: string) => string, what: string): void {
    if (!isRecord(value)) return;
    const holder = this.holder(block);
    for (const [name, body] of Object.entries(value)) {
      if (name === '//') continue;
      if (this.declare(address(name), what, file)) holder[name] = body;
    }
  }

  /** Provider blocks of one type add up (aliases); two of one name are refused where they are read. */
  private providers(value: unknown): void {
    if (!isRecord(value)) return;
    const holder = this.holder('provider');
    for (const [type, blocks] of Object.entries(value)) {
      const earlier = holder[type] === undefined ? [] : Array.isArray(holder[type]) ? holder[type] : [holder[type]];
      holder[type] = [...earlier, ...(Array.isArray(blocks) ? blocks : [blocks])];
    }
  }

  /** `terraform` settings add up; the backend (or cloud) block is declared once. */
  private terraform(file: string, value: unknown): void {
    if (!isRecord(value)) return;
    const holder = this.holder('terraform');
    for (const [key, setting] of Object.entries(value)) {
      if (key === 'backend' || key === 'cloud') this.declare('terraform.backend', 'backend configuration', file);
      if (key === 'required_providers' && isRecord(setting)) Object.assign(this.holder('required_providers', holder), setting);
      // Every file's constraint holds, as Terraform checks each.
      else if (key === 'required_version' && holder[key] !== undefined) holder[key] = [holder[key], setting].flat();
      else holder[key] = setting;
    }
  }

  private listed(block: 'moved' | 'removed' | 'import', value: unknown): void {
    const earlier = Array.isArray(this.document[block]) ? (this.document[block] as unknown[]) : [];
    this.document[block] = [...earlier, ...(Array.isArray(value) ? value : [value])];
  }
}
