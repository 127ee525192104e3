/**
 * The entry point of the command as the package runs it: this file and everything it loads,
 * bundled into one script (`dist/bundle/tenantform.js`, by scripts/bundle.ts at `npm run build`), which starts faster
 * than the few hundred compiled modules it holds (one file read and compiled, or taken from
 * Node's compile cache, instead of each module resolved, read and compiled). Its source map
 * is beside it, read only when a stack trace is written.
 */
import { readFileSync } from 'node:fs';
import type { LineIndex } from './bundle/line-index';
import { mapStackTraces } from './bundle/stack-traces';

mapStackTraces(__filename, () => ({
  mappings: readFileSync(`${__filename}.mappings`, 'utf8'),
  ...(JSON.parse(readFileSync(`${__filename}.lines`, 'utf8')) as LineIndex),
}));

export { main } from './cli/main';
