import { hasErrors, type AttributePath, type Diagnostic, type SourcePosition } from '../diagnostics';
import { configErrors, folderErrors } from './errors';
import { backendValueOf } from './model';
import { MAX_INPUT_BYTES, readInputFile } from '../input-file';
import { isRecord, ownValue } from '../plain-json';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { holdsTerraformFiles, readTerraformFolder, type TerraformFolder } from './folder';
import { parseInstanceAddress } from '../state/addresses';
import { readModuleSources, type ModuleSources } from './modules';
import type { ConfigLocation } from './locate';

/** The configuration as one Terraform JSON document, and for a folder where each block is declared and every problem of its files. */
export interface ConfigDocument {
  readonly document: Record<string, unknown>;
  readonly positionOf?: (address: string, path?: AttributePath) => SourcePosition | undefined;
  readonly problems?: readonly Diagnostic[];
  /** The local modules it calls, and theirs, by folder. */
  readonly modules?: ModuleSources;
}

/** Reads the configuration: the JSON file, or the folder's `.tf` and `.tf.json` files merged; then the local modules it calls. */
export async function readConfiguration(location: Pick<ConfigLocation, 'file' | 'source'>): Promise<ConfigDocument> {
  const read: ConfigDocument = location.source === 'folder' ? await readTerraformFolder(location.file) : { document: readConfigDocument(location.file) };
  if (read.document.module === undefined) return read;
  const dir = location.source === 'folder' ? location.file : dirname(location.file);
  const problems = [...(read.problems ?? [])];
  const positions = new Map<string, TerraformFolder['positionOf']>();
  // A folder without Terraform files is reported by the call that names it, with its address.
  const modules = await readModuleSources(read.document, dir, async (folder) => {
    if (!isFolder(folder) || !holdsTerraformFiles(folder)) return undefined;
    const module = await readTerraformFolder(folder);
    // A module's files are named from the configuration's folder: `modules/customer/main.tf`.
    for (const d of module.problems) problems.push(d.file === undefined ? d : { ...d, file: relative(dir, join(folder, d.file)) });
    positions.set(folder, module.positionOf);
    return module.document;
  });
  const positionOf = (address: string, path?: AttributePath): SourcePosition | undefined => {
    const inModule = moduleFolderOf(address, read.document, dir, modules);
    if (!inModule) return read.positionOf?.(address, path);
    const position = positions.get(inModule.folder)?.(inModule.address, path);
    return position && { ...position, file: relative(dir, join(inModule.folder, position.file)) };
  };
  return { ...read, problems, modules, positionOf };
}

/**
 * The folder that declares an object of a module (`module.customer["acme"].tenantform_tenant.this`),
 * and its address there: the calls are followed from the root, each by its source.
 */
function moduleFolderOf(
  address: string,
  root: Record<string, unknown>,
  rootDir: string,
  modules: ModuleSources,
): { folder: string; address: string } | undefined {
  const parsed = parseInstanceAddress(address);
  if (!parsed?.module) return undefined;
  let document: Record<string, unknown> | undefined = root;
  let folder = rootDir;
  for (const [, call] of parsed.module.matchAll(/module\.([A-Za-z_][\w-]*)(?:\[(?:\d+|"(?:[^"\\]|\\.)*")\])?/g)) {
    const body: unknown = isRecord(document?.module) ? ownValue(document.module, call) : undefined;
    const source = isRecord(body) ? body.source : undefined;
    if (typeof source !== 'string') return undefined;
    folder = resolve(folder, source);
    document = modules.get(folder);
  }
  return { folder, address: address.slice(parsed.module.length + 1) };
}

/** A folder's `terraform.backend`, read from its files for commands that read only the state; undefined for a JSON file (its backend reader reads it). */
export async function folderBackend(
  location: Pick<ConfigLocation, 'file' | 'source'>,
): Promise<{ readonly value: unknown; readonly document: Record<string, unknown> } | undefined> {
  if (location.source !== 'folder') return undefined;
  const { document, problems = [] } = await readConfiguration(location);
  if (hasErrors(problems)) throw folderErrors.invalidFiles(location.file, problems);
  return { value: backendValueOf(document), document };
}

const isFolder = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

export function readConfigDocument(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readInputFile(file, MAX_INPUT_BYTES, 'strict utf8');
  } catch (err) {
    throw configErrors.configUnreadable(file, (err as Error).message);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw configErrors.configUnreadable(file, (err as Error).message);
  }
  if (!isRecord(doc)) throw configErrors.configUnreadable(file, 'the file does not hold a JSON object');
  return doc;
}
