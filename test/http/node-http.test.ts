import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../support/start-command.ts';

// src/http/node-http.ts keeps Node's bundled undici unloaded. Checked on the built bot (dist/, as
// `npm start` runs it) in a fresh process: every module but main.js (which starts the bot).

const BUNDLED_UNDICI = 'internal/deps/undici/undici';

const loadsBundledUndici = (modules: string[]): boolean => {
  const script = `for (const m of JSON.parse(process.argv[1])) await import(m);
process.stdout.write(String(process.moduleLoadList.some((name) => name.includes(${JSON.stringify(BUNDLED_UNDICI)}))));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(modules)], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  return run.stdout === 'true';
};

it("loads none of Node's bundled undici from any module of the built bot", () => {
  const dist = join(ROOT, 'dist');
  const modules = readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js') && file !== 'main.js')
    .map((file) => join(dist, file));
  expect(modules.length).toBeGreaterThan(100);
  expect(loadsBundledUndici(modules)).toBe(false);
});

it('would see it loaded: node:http imported as an ES module', () => {
  expect(loadsBundledUndici(['node:http'])).toBe(true);
});
