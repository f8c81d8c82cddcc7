import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, startArgs } from '../support/start-command.ts';

// `npm ci --omit=dev && npm start`: no rolldown, and no project Node 24 (a development
// dependency), so npm runs the machine's node. npm start's build step must say what is missing
// and how to install for production, never end in a stack trace.

const prestartArgs = (): string[] => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [command, ...args] = (scripts.prestart ?? '').split(/\s+/);
  expect(command).toBe('node');
  return args;
};

/** A checkout without node_modules: what `npm ci --omit=dev` leaves of the build's tools. */
let copy: string;
beforeEach(() => {
  copy = mkdtempSync(join(tmpdir(), 'production-install-'));
  for (const path of ['package.json', 'package-lock.json', 'scripts', 'src', 'locales']) cpSync(join(ROOT, path), join(copy, path), { recursive: true });
});
afterEach(() => rmSync(copy, { recursive: true, force: true }));

const run = (args: string[], input = '') =>
  spawnSync(process.execPath, args, { cwd: copy, env: { PATH: process.env.PATH ?? '', LANG: 'en_US.UTF-8', DATA_DIR: join(copy, 'data') }, input, encoding: 'utf8', timeout: 30_000 });

/** What an operator must read: one paragraph with the install that works, no stack trace. */
const expectAdvice = (stderr: string, says: RegExp) => {
  expect(stderr).toMatch(says);
  expect(stderr).toContain('`npm ci && npm run build && npm prune --omit=dev`');
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr.trim().split('\n')).toHaveLength(1);
};

describe("npm start's build step after a production install", () => {
  it('says that rolldown is missing and how to build dist/ first, when dist/ is not built', () => {
    const result = run(prestartArgs());
    expectAdvice(result.stderr, /^dist\/ is missing .* rolldown, the development dependency that builds it, is not installed/);
    expect(result.status).toBe(1);
  });

  it('needs no rolldown once dist/ is built from these sources: then npm start runs dist/ alone', () => {
    cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
    const build = run(prestartArgs());
    expect(build.stderr).toMatch(/^dist\/ is up to date/);
    expect(build.status).toBe(0);
    const chat = run(startArgs(), '/order 0007300100\n');
    expect(chat.stdout).toContain('Order No. 0007300100 dated 18 Nov 2025');
    expect(chat.status).toBe(0);
  });

  it('says which Node it needs on a Node older than 24 (the machine’s own, the project’s Node 24 left out)', () => {
    // process.versions as an older Node reports it, set before the script runs.
    const older = 'data:text/javascript,' + encodeURIComponent('for (const [o, k, v] of [[process.versions, "node", "20.20.2"], [process, "version", "v20.20.2"]]) Object.defineProperty(o, k, { value: v });');
    const result = run(['--import', older, ...prestartArgs()]);
    expectAdvice(result.stderr, /^npm start needs Node 24 or newer; this is Node v20\.20\.2\. .*install Node 24 on the machine/);
    expect(result.status).toBe(1);
  });
});
