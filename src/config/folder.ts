import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { folderErrors } from '../errors';
import { readInputFile } from '../input-file';
import { isRecord, parsePlainJson, plainObject } from '../plain-json';
import { normalizeHcl } from './hcl';

/**
 * A folder of Terraform files read as terraform reads its working folder: every `.tf` and
 * `.tf.json` file, in name order, merged into one Terraform JSON document. A block declared in two
 * files is an error naming both; override files are refused by name.
 */
export interface TerraformFolder {
  readonly document: Record<string, unknown>;
  /** The file that declares a block: `tenantform_tenant.customer`, `var.region`, `local.names`, `output.ids`. */
  readonly fileOf: (address: string) => string | undefined;
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
  const override = files.find(isOverride);
  if (override) throw folderErrors.overrideFile(override);
  const merged = new MergedDocument();
  for (const name of files) {
    const text = readText(join(dir, name), name);
    if (name.endsWith('.json')) merged.add(name, jsonDocument(text, name));
    else {
      const { document, duplicates } = normalizeHcl(await convertHcl(name, text));
      const first = duplicates[0];
      if (first) throw folderErrors.duplicate(first.what, first.address, name, name);
      refuseBlocksForAttributes(document, text, name);
      merged.add(name, document);
    }
  }
  return { document: merged.document, fileOf: (address) => merged.fileOf(address) };
}

/** The blocks of the language a resource or data body may hold; any other name written as a block is an attribute of the kind. */
const BODY_BLOCKS = new Set(['lifecycle', 'precondition', 'postcondition', 'provisioner', 'connection', 'dynamic', 'content']);

/**
 * tenantform's structured values are attributes (`items = [{ ... }]`), and terraform refuses them
 * written as blocks (`items { ... }`). The converter writes both alike, so the file's text tells
 * them apart: a line that opens a block of that name.
 */
function refuseBlocksForAttributes(document: Record<string, unknown>, text: string, file: string): void {
  const opened = new Set([...text.matchAll(/^[ \t]*([A-Za-z_][\w-]*)[ \t]*\{/gm)].map((m) => m[1]).filter((n) => !BODY_BLOCKS.has(n)));
  if (opened.size === 0) return;
  for (const mode of ['resource', 'data'] as const) {
    const byType = document[mode];
    if (!isRecord(byType)) continue;
    for (const [type, byName] of Object.entries(byType))
      for (const [name, body] of isRecord(byName) ? Object.entries(byName) : []) {
        const written = isRecord(body) ? Object.keys(body).find((k) => opened.has(k)) : undefined;
        if (written) throw folderErrors.blockForAttribute(`${mode === 'data' ? 'data.' : ''}${type}.${name}`, written, file);
      }
  }
}

function readText(file: string, name: string): string {
  try {
    return readInputFile(file);
  } catch (err) {
    throw folderErrors.unreadable(name, (err as Error).message);
  }
}

function jsonDocument(text: string, name: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parsePlainJson(text);
  } catch (err) {
    throw folderErrors.unreadable(name, (err as Error).message);
  }
  if (!isRecord(doc)) throw folderErrors.unreadable(name, 'the file does not hold a JSON object');
  return doc;
}

interface HclConverter {
  parse(filename: string, contents: string): Promise<Record<string, unknown>>;
}

let converter: Promise<HclConverter> | undefined;

/** One `.tf` file as the converter writes it. Loaded on first use: it starts a WebAssembly program that JSON stacks never need. */
async function convertHcl(name: string, text: string): Promise<Record<string, unknown>> {
  converter ??= import('@cdktn/hcl2json');
  try {
    const converted = await (await converter).parse(name, text);
    return isRecord(converted) ? converted : {};
  } catch (err) {
    // "parse config: [main.tf:3,7-8: Invalid expression; ...]": the file, line and column, then what is wrong.
    const reason = (err as Error).message.replace(/^parse config: \[([^]*)\]$/, '$1');
    throw folderErrors.unreadable(name, reason.replace(new RegExp(`${escaped(name)}:(\\d+),(\\d+)(-[\\d,]+)?:`, 'g'), 'line $1, column $2:'));
  }
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The merge of the folder's documents, with the file each block came from. */
class MergedDocument {
  readonly document: Record<string, unknown> = plainObject();
  private readonly sources = new Map<string, string>();

  fileOf(address: string): string | undefined {
    return this.sources.get(address.replace(/\[[^\]]*\]$/, ''));
  }

  add(file: string, doc: Record<string, unknown>): void {
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

  private declare(address: string, what: string, file: string): void {
    const first = this.sources.get(address);
    if (first !== undefined) throw folderErrors.duplicate(what, address, first, file);
    this.sources.set(address, file);
  }

  private labelledTwice(file: string, block: 'resource' | 'data', value: unknown): void {
    if (!isRecord(value)) return;
    for (const [type, byName] of Object.entries(value)) {
      if (!isRecord(byName)) continue;
      for (const [name, body] of Object.entries(byName)) {
        if (name === '//') continue;
        this.declare(`${block === 'data' ? 'data.' : ''}${type}.${name}`, block === 'data' ? 'data source' : 'resource', file);
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
      this.declare(address(name), what, file);
      holder[name] = body;
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
      else holder[key] = setting;
    }
  }

  private listed(block: 'moved' | 'removed' | 'import', value: unknown): void {
    const earlier = Array.isArray(this.document[block]) ? (this.document[block] as unknown[]) : [];
    this.document[block] = [...earlier, ...(Array.isArray(value) ? value : [value])];
  }
}
