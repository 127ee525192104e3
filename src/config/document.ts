import { reconcilerErrors } from '../errors';
import { readInputFile } from '../input-file';
import { isRecord, ownValue } from '../plain-json';
import { readTerraformFolder } from './folder';
import type { ConfigLocation } from './locate';

/** The configuration as one Terraform JSON document, and for a folder the file each block is declared in. */
export interface ConfigDocument {
  readonly document: Record<string, unknown>;
  readonly fileOf?: (address: string) => string | undefined;
}

/** Reads the configuration: the JSON file, or the folder's `.tf` and `.tf.json` files merged. */
export async function readConfiguration(location: Pick<ConfigLocation, 'file' | 'source'>): Promise<ConfigDocument> {
  return location.source === 'folder' ? readTerraformFolder(location.file) : { document: readConfigDocument(location.file) };
}

/** A folder's `terraform.backend`, read from its files for commands that read only the state; undefined for a JSON file (its backend reader reads it). */
export async function folderBackend(location: Pick<ConfigLocation, 'file' | 'source'>): Promise<{ readonly value: unknown } | undefined> {
  return location.source === 'folder' ? { value: backendValueOf((await readConfiguration(location)).document) } : undefined;
}

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
