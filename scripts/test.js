// The project's test command: runtime guard, type check, lint, the whole vitest suite,
// then one plain summary line "N passed, N failed". Plain JavaScript so that the guard
// itself still runs, and explains itself, on a Node too old to strip TypeScript types.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const MIN_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < MIN_MAJOR) {
  console.error(
    `Node ${MIN_MAJOR} or newer is required, this is ${process.version}. ` +
      'Run "npm ci" and then "npm test": npm scripts use the project\'s own Node 24 (devDependency "node").',
  );
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const run = (label, cmd, args) => {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', shell: false });
  return result.status === 0;
};

const report = '.vitest-report.json';
rmSync(report, { force: true });
const checks = [
  ['type check', run('type check (tsc --noEmit)', 'tsc', ['--noEmit'])],
  ['lint', run('lint (eslint)', 'eslint', ['.', '--max-warnings=0'])],
];
run('tests (vitest)', 'vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile=${report}`]);

let passed = 0;
let failed = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests;
  if (json.numTotalTests === 0 || json.success === false) failed += json.numFailedTests === 0 ? 1 : 0;
} catch {
  console.error('vitest wrote no report: the suite did not run.');
  failed += 1;
}
rmSync(report, { force: true });
for (const [label, ok] of checks) {
  if (!ok) {
    console.error(`${label} failed`);
    failed += 1;
  }
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
