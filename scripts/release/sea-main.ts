/**
 * The script Node runs first in tenantform's single executable. It runs the bundle (an asset of
 * the executable) as a module that resolves no package from a folder: everything it runs is in
 * the executable. Stack traces name the TypeScript sources through the bundle's source map (two
 * more assets: its mappings and their line index, see line-index.ts), read only when a trace is
 * first written. Node's own source-map support (`--enable-source-maps`, which a single executable
 * of Node 20 cannot be given) would decode the whole map at every start, which the provider,
 * launched several times per Terraform command, would pay each time.
 */
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { getAsset } from 'node:sea';
import { originalPosition, type LineStart } from './line-index';
import { LINE_INDEX_ASSET, MAPPINGS_ASSET, BUNDLE_ASSET, type LineIndex } from './assets';

/** Module's own compile step: what `require` does with a file's text once it has read it. */
type CompilingModule = Module & { _compile(content: string, filename: string): unknown };

const filename = join(dirname(process.execPath), BUNDLE_ASSET);

let sourceMap: { mappings: string; sources: readonly string[]; starts: readonly LineStart[] } | undefined;

/** A frame of the bundle as its TypeScript source, else as V8 writes it. */
function frameText(frame: NodeJS.CallSite): string {
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  if (frame.getFileName() !== filename || line === null || column === null) return frame.toString();
  sourceMap ??= { mappings: getAsset(MAPPINGS_ASSET, 'utf8'), ...(JSON.parse(getAsset(LINE_INDEX_ASSET, 'utf8')) as LineIndex) };
  const at = originalPosition(sourceMap.mappings, sourceMap.starts, line - 1, column - 1);
  const source = at && sourceMap.sources[at.source];
  if (!at || source === undefined) return frame.toString();
  const place = `${source}:${at.line + 1}:${at.column + 1}`;
  const name = frame.getFunctionName() ?? frame.getMethodName();
  const prefix = `${frame.isAsync() ? 'async ' : ''}${frame.isConstructor() ? 'new ' : ''}`;
  return name ? `${prefix}${name} (${place})` : `${prefix}${place}`;
}

Error.prepareStackTrace = (error: unknown, frames: NodeJS.CallSite[]) => {
  let head: string;
  try {
    head = error instanceof Error ? Error.prototype.toString.call(error) : String(error);
  } catch {
    head = '<error>';
  }
  return [head, ...frames.map((frame) => `    at ${frameText(frame)}`)].join('\n');
};

const bundle = new Module(filename) as CompilingModule;
bundle.filename = filename;
bundle.paths = [];
bundle._compile(getAsset(BUNDLE_ASSET, 'utf8'), filename);
