import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../support/start-command.ts';

// src/http/node-http.ts keeps Node's bundled undici unloaded. Checked on the built bot (dist/, as
// `npm start` runs it) in a fresh process: every chunk loaded only when used, then main.js itself,
// which starts the console chat (no token) and ends with its input.

const BUNDLED_UNDICI = 'internal/deps/undici/undici';

/** Node's own modules a fresh process has loaded after importing `modules` (the bot's ends with its input). */
const loadedBy = (modules: string[]): string[] => {
  const script = `process.on('exit', () => process.stdout.write('\\nloaded: ' + JSON.stringify(process.moduleLoadList)));
for (const m of JSON.parse(process.argv[1])) await import(m);`;
  const env = { PATH: process.env.PATH ?? '', DATA_DIR: mkdtempSync(join(tmpdir(), 'node-http-')) };
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(modules)], { cwd: ROOT, env, input: '', encoding: 'utf8', timeout: 60_000 });
  rmSync(env.DATA_DIR, { recursive: true, force: true });
  expect(run.stderr).toBe('');
  const loaded = /\nloaded: (\[.*\])$/.exec(run.stdout)?.[1];
  expect(loaded, 'the process ended without saying').toBeDefined();
  return JSON.parse(loaded!) as string[];
};

const loadsBundledUndici = (modules: string[]): boolean => loadedBy(modules).some((name) => name.includes(BUNDLED_UNDICI));

it("loads none of Node's bundled undici from any module of the built bot", () => {
  const dist = join(ROOT, 'dist');
  const chunks = readdirSync(dist)
    .filter((file) => file.endsWith('.js') && file !== 'main.js')
    .map((file) => join(dist, file));
  expect(chunks.length).toBeGreaterThan(3);
  expect(loadsBundledUndici([...chunks, join(dist, 'main.js')])).toBe(false);
});

it('would see it loaded: node:http imported as an ES module', () => {
  expect(loadsBundledUndici(['node:http'])).toBe(true);
});
