// Loaded with `node --require` by the benchmarks: writes the process's CPU time and peak
// memory to the file named by BENCH_USAGE_FILE when it exits.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const usage = process.resourceUsage();
  writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssKb: usage.maxRSS }));
});
