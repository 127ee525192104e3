/**
 * The script Node runs first in tenantform's single executable. It runs the bundle (an asset of
 * the executable) as a module that resolves no package from a folder: everything it runs is in
 * the executable. Stack traces name the TypeScript sources through the bundle's source map (two
 * more assets: its mappings and their line index, see src/bundle/), read only when a trace is
 * first written. Node's own source-map support (`--enable-source-maps`, which a single executable
 * of Node 20 cannot be given) would decode the whole map at every start, which the provider,
 * launched several times per Terraform command, would pay each time.
 */
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { getAsset } from 'node:sea';
import { mapStackTraces } from '../../src/bundle/stack-traces';
import { LINE_INDEX_ASSET, MAPPINGS_ASSET, BUNDLE_ASSET, type LineIndex } from './assets';

/** Module's own compile step: what `require` does with a file's text once it has read it. */
type CompilingModule = Module & { _compile(content: string, filename: string): unknown };

const filename = join(dirname(process.execPath), BUNDLE_ASSET);

mapStackTraces(filename, () => ({ mappings: getAsset(MAPPINGS_ASSET, 'utf8'), ...(JSON.parse(getAsset(LINE_INDEX_ASSET, 'utf8')) as LineIndex) }));

const bundle = new Module(filename) as CompilingModule;
bundle.filename = filename;
bundle.paths = [];
bundle._compile(getAsset(BUNDLE_ASSET, 'utf8'), filename);
