#!/usr/bin/env node
'use strict';
// The published entry point runs the compiled CLI; the package's `prepare` (`npm run build`) produces dist/.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const main = join(__dirname, '..', 'dist', 'cli', 'main.js');
if (!existsSync(main)) {
  process.stderr.write(
    `tenantform is not built: ${main} is missing.\n` +
      'In a checkout of tenantform, run `npm run build`. Installed from a git URL, npm builds it when the install runs scripts (not with --ignore-scripts).\n',
  );
  process.exit(1);
}
require(main).main(process.argv.slice(2));
