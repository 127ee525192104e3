/** Ends a jest run with one plain line a CI log reader can count: "jest: N passed, N failed, N skipped". */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
