/**
 * Ends a jest run with one plain line a CI log reader can count ("jest: N passed, N failed, N
 * skipped"), and where the time went: the time of the suites of each folder added up, and the
 * slowest suites (the numbers CONTRIBUTING's "Where the suite's time goes" is kept with).
 */
const { relative } = require('node:path');

const SLOWEST = 15;

/** The folder a suite's time is counted under: `src`, or `test/<folder>`. */
function folderOf(path) {
  const parts = path.split('/');
  return parts[0] === 'test' && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .filter((suite) => suite.perfStats && suite.perfStats.end > suite.perfStats.start)
      .map((suite) => ({ path: relative(this.rootDir, suite.testFilePath), seconds: (suite.perfStats.end - suite.perfStats.start) / 1000 }));
    if (suites.length > 1) {
      const byFolder = new Map();
      for (const suite of suites) byFolder.set(folderOf(suite.path), (byFolder.get(folderOf(suite.path)) ?? 0) + suite.seconds);
      const total = suites.reduce((sum, suite) => sum + suite.seconds, 0);
      const lines = [`jest: suites' time added up ${total.toFixed(0)} s, by folder:`];
      for (const [folder, seconds] of [...byFolder].sort((a, b) => b[1] - a[1])) lines.push(`  ${seconds.toFixed(0).padStart(6)} s  ${folder}`);
      lines.push(`jest: the ${Math.min(SLOWEST, suites.length)} slowest suites:`);
      for (const suite of suites.sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST))
        lines.push(`  ${suite.seconds.toFixed(1).padStart(6)} s  ${suite.path}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
