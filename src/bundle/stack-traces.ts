/**
 * Stack traces of a bundle that name the TypeScript sources, through the bundle's source map as
 * the build writes it (its `mappings` and their line index, see line-index.ts), read only when a
 * trace is first written. Node's own source-map support would decode the whole map at every
 * start, and yargs formats a stack at every command.
 */
import { originalPosition, type LineIndex } from './line-index';

/** A bundle's source map as the build writes it beside the bundle. */
export interface BundleSourceMap extends LineIndex {
  readonly mappings: string;
}

/** From now on, frames of `bundleFile` name their TypeScript source; `read` loads the map the first time one does. */
export function mapStackTraces(bundleFile: string, read: () => BundleSourceMap): void {
  let sourceMap: BundleSourceMap | undefined;
  const frameText = (frame: NodeJS.CallSite): string => {
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (frame.getFileName() !== bundleFile || line === null || column === null) return frame.toString();
    sourceMap ??= read();
    const at = originalPosition(sourceMap.mappings, sourceMap.checkpoints, line - 1, column - 1);
    const source = at && sourceMap.sources[at.source];
    if (!at || source === undefined) return frame.toString();
    const place = `${source}:${at.line + 1}:${at.column + 1}`;
    const name = frame.getFunctionName() ?? frame.getMethodName();
    const prefix = `${frame.isAsync() ? 'async ' : ''}${frame.isConstructor() ? 'new ' : ''}`;
    return name ? `${prefix}${name} (${place})` : `${prefix}${place}`;
  };
  Error.prepareStackTrace = (error: unknown, frames: NodeJS.CallSite[]) => {
    let head: string;
    try {
      head = error instanceof Error ? Error.prototype.toString.call(error) : String(error);
    } catch {
      head = '<error>';
    }
    return [head, ...frames.map((frame) => `    at ${frameText(frame)}`)].join('\n');
  };
}
