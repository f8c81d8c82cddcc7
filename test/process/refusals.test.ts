import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startArgs } from '../support/start-command.ts';

// src/main.ts refusing to start on a store or a token file it cannot use: exit status 2 and one
// line on stderr that names the file and says what to do, as for a bad configuration.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bot-refusal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Nothing is listening there: every refusal comes before the bot asks Telegram or the portal. */
const NOWHERE = 'http://127.0.0.1:9';

const run = (env: Record<string, string>) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, startArgs(), {
      env: {
        PATH: process.env.PATH ?? '',
        BOT_TOKEN: '123456:refusal-test-token-abcdefghijklmnop',
        TELEGRAM_API_ROOT: NOWHERE,
        PORTAL_URL: NOWHERE,
        PORTAL_TOKEN: 'portal-token-for-refusals',
        ALLOW_ANYONE: 'true',
        DATA_DIR: join(dir, 'data'),
        LOG_LEVEL: 'debug',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });

/** Exit status 2, a single line naming `path`, and no stack trace. */
const expectRefusal = async (env: Record<string, string>, path: string, says: RegExp) => {
  const { code, stderr } = await run(env);
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(says);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(code).toBe(2);
};

describe('main.ts refuses a store it cannot open', () => {
  it('when DATA_DIR is a regular file', async () => {
    const file = join(dir, 'data');
    writeFileSync(file, 'not a directory');
    await expectRefusal({ DATA_DIR: file }, file, /not a directory.*DATA_DIR/);
  });

  it('when bot.sqlite is not a database', async () => {
    const data = join(dir, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'bot.sqlite'), 'garbage '.repeat(200));
    await expectRefusal({}, join(data, 'bot.sqlite'), /file is not a database\. Move it away.*DATA_DIR/);
  });

  it('when bot.sqlite is a directory', async () => {
    const data = join(dir, 'data');
    mkdirSync(join(data, 'bot.sqlite'), { recursive: true });
    await expectRefusal({}, join(data, 'bot.sqlite'), /unable to open database file\..*DATA_DIR/);
  });
});

describe('main.ts refuses a portal token file it cannot read', () => {
  it('when PORTAL_TOKEN_FILE is missing', async () => {
    const file = join(dir, 'no-such-token');
    await expectRefusal({ PORTAL_TOKEN_FILE: file }, file, /PORTAL_TOKEN_FILE.*no such file/);
  });

  it('when PORTAL_TOKEN_FILE is a directory', async () => {
    const file = join(dir, 'token-dir');
    mkdirSync(file);
    await expectRefusal({ PORTAL_TOKEN_FILE: file }, file, /PORTAL_TOKEN_FILE.*a directory/);
  });

  it('when PORTAL_TOKEN_FILE is empty', async () => {
    const file = join(dir, 'token');
    writeFileSync(file, ' \n');
    await expectRefusal({ PORTAL_TOKEN_FILE: file }, file, /PORTAL_TOKEN_FILE.*empty/);
  });
});

describe('main.ts refuses a secret file it cannot read (Docker secrets)', () => {
  it('when BOT_TOKEN_FILE is missing', async () => {
    const file = join(dir, 'no-such-bot-token');
    await expectRefusal({ BOT_TOKEN: '', BOT_TOKEN_FILE: file }, file, /bot token file .*\(BOT_TOKEN_FILE\): no such file/);
  });

  it('when DATABASE_URL_FILE is empty', async () => {
    const file = join(dir, 'database_url');
    writeFileSync(file, '\n');
    await expectRefusal({ DATABASE_URL_FILE: file }, file, /database URL file .*\(DATABASE_URL_FILE\): it is empty/);
  });
});

describe('main.ts refuses a STATUS_NAMES_FILE it cannot use (issue 30)', () => {
  it('when a YAML file is not of the documented shape', async () => {
    const file = join(dir, 'statuses.yaml');
    writeFileSync(file, 'types:\n  ZSD_DOG:\n    ru: Договор\n');
    await expectRefusal({ STATUS_NAMES_FILE: file }, file, /^STATUS_NAMES_FILE .*: types\.ZSD_DOG\.en: /);
  });

  it('when a JSON file is no JSON', async () => {
    const file = join(dir, 'statuses.json');
    writeFileSync(file, '{"orders": {');
    await expectRefusal({ STATUS_NAMES_FILE: file }, file, /not valid JSON/);
  });

  it('when it is missing', async () => {
    const file = join(dir, 'no-statuses.yaml');
    await expectRefusal({ STATUS_NAMES_FILE: file }, file, /cannot read it \(no such file\)/);
  });
});
