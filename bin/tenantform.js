#!/usr/bin/env node
'use strict';
// The published entry point runs the command's bundle (dist/bundle, see src/command.ts), which
// the package's `prepare` (`npm run build`) produces.
const { existsSync } = require('node:fs');
const nodeModule = require('node:module');
const { join } = require('node:path');

const main = join(__dirname, '..', 'dist', 'bundle', 'tenantform.js');
if (!existsSync(main)) {
  process.stderr.write(
    `tenantform is not built: ${main} is missing.\n` +
      'In a checkout of tenantform, run `npm run build`. Installed from a git URL, npm builds it when the install runs scripts (not with --ignore-scripts).\n',
  );
  process.exit(1);
}
// Node's own compile cache, where the running Node has it (22.1 and later): Node keeps it in a
// folder of its own and checks it against the code it was made from.
if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
// Stack traces name the TypeScript sources: the bundle maps its own frames when a trace is written.
require(main).main(process.argv.slice(2));
