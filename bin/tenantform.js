#!/usr/bin/env node
'use strict';
// The published entry point runs the compiled CLI; `npm run build` produces dist/.
require('../dist/cli/main.js').main(process.argv.slice(2));
