import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { ROOT } from './start-command.ts';

/**
 * Runs node with `args` (flags, then a probe) in the project's root, with only PATH from the
 * environment (no NODE_OPTIONS or UNDICI_* of the test run), and returns its standard output once
 * it has exited 0. V8's traces (--trace-*) are written there.
 */
export const runNodeProbe = (args: string[]): string => {
  const run = spawnSync(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 60_000, maxBuffer: 32 * 1024 * 1024 });
  expect(run.error, String(run.error)).toBeUndefined();
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};
