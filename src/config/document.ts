import { hasErrors, type AttributePath, type Diagnostic, type SourcePosition } from '../diagnostics';
import { folderErrors, reconcilerErrors } from '../errors';
import { readInputFile } from '../input-file';
import { isRecord, ownValue } from '../plain-json';
import { readTerraformFolder } from './folder';
import type { ConfigLocation } from './locate';

/** The configuration as one Terraform JSON document, and for a folder where each block is declared and every problem of its files. */
export interface ConfigDocument {
  readonly document: Record<string, unknown>;
  readonly positionOf?: (address: string, path?: AttributePath) => SourcePosition | undefined;
  readonly problems?: readonly Diagnostic[];
}

/** Reads the configuration: the JSON file, or the folder's `.tf` and `.tf.json` files merged. */
export async function readConfiguration(location: Pick<ConfigLocation, 'file' | 'source'>): Promise<ConfigDocument> {
  return location.source === 'folder' ? readTerraformFolder(location.file) : { document: readConfigDocument(location.file) };
}

/** A folder's `terraform.backend`, read from its files for commands that read only the state; undefined for a JSON file (its backend reader reads it). */
export async function folderBackend(location: Pick<ConfigLocation, 'file' | 'source'>): Promise<{ readonly value: unknown } | undefined> {
  if (location.source !== 'folder') return undefined;
  const { document, problems = [] } = await readConfiguration(location);
  if (hasErrors(problems)) throw folderErrors.invalidFiles(location.file, problems);
  return { value: backendValueOf(document) };
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
