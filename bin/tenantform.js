#!/usr/bin/env node
'use strict';
// The published entry point runs the compiled CLI: the one-file bundle that `npm run build`
// makes (dist/tenantform.cjs), else the compiled modules in dist/cli. The package's `prepare`
// (`npm run build`) produces both.
const { existsSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const bundle = join(dist, 'tenantform.cjs');
const modules = join(dist, 'cli', 'main.js');
// V8 settings for a command that runs for seconds and exits (see src/v8-flags.ts): set once the
// program is loaded, and reset before the bundle's code cache is written.
const v8Settings = () => {
  const file = join(dist, 'v8-flags.js');
  if (!existsSync(file)) return { apply: () => undefined, reset: () => undefined };
  const flags = require(file);
  return { apply: () => flags.applyV8Settings(flags.CLI_V8_SETTINGS), reset: () => flags.resetV8Settings(flags.CLI_V8_SETTINGS) };
};
if (existsSync(bundle)) {
  const settings = v8Settings();
  const cli = runBundle(bundle, settings.reset);
  settings.apply();
  cli.main(process.argv.slice(2));
} else if (existsSync(modules)) {
  const cli = require(modules);
  v8Settings().apply();
  cli.main(process.argv.slice(2));
} else {
  process.stderr.write(
    `tenantform is not built: ${modules} is missing.\n` +
      'In a checkout of tenantform, run `npm run build`. Installed from a git URL, npm builds it when the install runs scripts (not with --ignore-scripts).\n',
  );
  process.exit(1);
}

/**
 * Runs the bundle as Node would run a module, but compiled with V8's code cache beside it
 * (`<bundle>.cache`): most of a launch is otherwise spent compiling. A cache that V8 refuses
 * (another Node version) or that is older than the bundle is replaced when the process ends,
 * so that it also holds what this run compiled; where the folder cannot be written (a global
 * install), the CLI runs without one.
 */
function runBundle(file, resetV8Settings) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const cacheFile = `${file}.cache`;
  let cachedData;
  try {
    if (statSync(cacheFile).mtimeMs >= statSync(file).mtimeMs) cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      const temp = `${cacheFile}.${process.pid}`;
      try {
        resetV8Settings();
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // Read-only package folder: the next launch compiles again.
      }
    });
  }
  const module = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return module.exports;
}
