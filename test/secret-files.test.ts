import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig, type ConfigError } from '../src/config.ts';
import { SecretFileError, withSecretFiles } from '../src/secret-files.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'secret-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe('withSecretFiles', () => {
  it('reads BOT_TOKEN_FILE and DATABASE_URL_FILE into BOT_TOKEN and DATABASE_URL, trimmed; the file wins', () => {
    const env = withSecretFiles({
      BOT_TOKEN: '1:from-the-environment',
      BOT_TOKEN_FILE: file('bot_token', '123456789:AAE-abcdefghijklmnopqrstuvwxyz_0123\n'),
      DATABASE_URL_FILE: file('database_url', ' postgres://bot:store@postgres:5432/bot\n'),
      PORT: '8080',
    });
    expect(env).toMatchObject({ BOT_TOKEN: '123456789:AAE-abcdefghijklmnopqrstuvwxyz_0123', DATABASE_URL: 'postgres://bot:store@postgres:5432/bot', PORT: '8080' });
    const config = parseConfig(env);
    expect(config.botToken).toBe('123456789:AAE-abcdefghijklmnopqrstuvwxyz_0123');
    expect(config.database?.url).toBe('postgres://bot:store@postgres:5432/bot');
  });

  it('leaves the environment as it is without them', () => {
    expect(withSecretFiles({ BOT_TOKEN: 'x', DATABASE_URL_FILE: ' ' })).toEqual({ BOT_TOKEN: 'x', DATABASE_URL_FILE: ' ' });
  });

  it('refuses a file it cannot read, or an empty one, naming the variable and the file', () => {
    const missing = join(dir, 'missing');
    mkdirSync(join(dir, 'directory'));
    const cases: [Record<string, string>, RegExp][] = [
      [{ BOT_TOKEN_FILE: missing }, /^cannot read the bot token file .*missing \(BOT_TOKEN_FILE\): no such file\. Put the bot token there, or point BOT_TOKEN_FILE at the file that has it\.$/],
      [{ DATABASE_URL_FILE: join(dir, 'directory') }, /^cannot read the database URL file .*directory \(DATABASE_URL_FILE\): it is a directory\./],
      [{ DATABASE_URL_FILE: file('empty', '\n') }, /^cannot read the database URL file .*empty \(DATABASE_URL_FILE\): it is empty\./],
    ];
    for (const [env, says] of cases) {
      expect(() => withSecretFiles(env)).toThrow(SecretFileError);
      expect(() => withSecretFiles(env)).toThrow(says);
    }
  });

  it("names the file when the value it holds is refused, never the value", () => {
    const env = withSecretFiles({ BOT_TOKEN_FILE: file('bot_token', 'not-a-token'), DATABASE_URL_FILE: file('database_url', 'mysql://root:hunter2@db/x') });
    const error = (() => {
      try {
        parseConfig(env);
      } catch (caught) {
        return caught as ConfigError;
      }
      throw new Error('accepted');
    })();
    expect(error.problems).toEqual([
      expect.stringMatching(/^BOT_TOKEN \(read from BOT_TOKEN_FILE\): must look like/),
      expect.stringMatching(/^DATABASE_URL \(read from DATABASE_URL_FILE\): must be a postgres:\/\//),
    ]);
    expect(error.message).not.toMatch(/not-a-token|hunter2/);
  });
});
