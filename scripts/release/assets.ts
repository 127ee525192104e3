/** The assets of the single executable, by the names the loader and the bundle ask for them. */
export type { LineIndex } from '../../src/bundle/line-index';

/** The bundle of src/executable.ts: the command and the provider. */
export const BUNDLE_ASSET = 'tenantform.js';
/** The `mappings` of the bundle's source map. */
export const MAPPINGS_ASSET = 'tenantform.js.mappings';
/** The rest of the source map: its sources and the checkpoints of its mappings (see line-index.ts). */
export const LINE_INDEX_ASSET = 'tenantform.js.lines';
/** The HCL converter's WebAssembly program is HCL_PROGRAM_ASSET, named where src/config/hcl-program.ts reads it. */
