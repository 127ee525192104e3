import { reconcilerErrors } from '../errors';
import { readInputFile } from '../input-file';
import { isRecord, ownValue } from '../plain-json';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { holdsTerraformFiles, readTerraformFolder } from './folder';
import { readModuleSources, type ModuleSources } from './modules';
import type { ConfigLocation } from './locate';

/** The configuration as one Terraform JSON document, and for a folder the file each block is declared in. */
export interface ConfigDocument {
  readonly document: Record<string, unknown>;
  readonly fileOf?: (address: string) => string | undefined;
  /** The local modules it calls, and theirs, by folder. */
  readonly modules?: ModuleSources;
}

/** Reads the configuration: the JSON file, or the folder's `.tf` and `.tf.json` files merged; then the local modules it calls. */
export async function readConfiguration(location: Pick<ConfigLocation, 'file' | 'source'>): Promise<ConfigDocument> {
  const read: ConfigDocument = location.source === 'folder' ? await readTerraformFolder(location.file) : { document: readConfigDocument(location.file) };
  if (read.document.module === undefined) return read;
  const dir = location.source === 'folder' ? location.file : dirname(location.file);
  // A folder without Terraform files is reported by the call that names it, with its address.
  const modules = await readModuleSources(read.document, dir, async (folder) =>
    isFolder(folder) && holdsTerraformFiles(folder) ? (await readTerraformFolder(folder)).document : undefined,
  );
  return { ...read, modules };
}

/** A folder's `terraform.backend`, read from its files for commands that read only the state; undefined for a JSON file (its backend reader reads it). */
export async function folderBackend(location: Pick<ConfigLocation, 'file' | 'source'>): Promise<{ readonly value: unknown } | undefined> {
  return location.source === 'folder' ? { value: backendValueOf((await readConfiguration(location)).document) } : undefined;
}

const isFolder = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/** `terraform.backend` as the configuration declares it (undefined when it declares none). */
export function backendValueOf(document: Record<string, unknown>): unknown {
  return isRecord(document.terraform) ? ownValue(document.terraform, 'backend') : undefined;
}

export function readConfigDocument(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readInputFile(file);
  } catch (err) {
    throw reconcilerErrors.configUnreadable(file, (err as Error).message);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw reconcilerErrors.configUnreadable(file, (err as Error).message);
  }
  if (!isRecord(doc)) throw reconcilerErrors.configUnreadable(file, 'the file does not hold a JSON object');
  return doc;
}
