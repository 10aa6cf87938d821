// Prints one plain closing line, "Summary: N passed, N failed, N skipped", after jest's own summary, so CI
// logs state the outcome in a form any reader (human or tool) can find.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\nSummary: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
