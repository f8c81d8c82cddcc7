import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freshDatabase } from '../support/pg-database.ts';
import { useBotProcesses } from '../support/process-fixture.ts';

// Docker secrets: the bot token and the database URL as files (/run/secrets/…), not as
// environment variables that `docker inspect` shows.

const f = useBotProcesses();

it('takes the bot token from BOT_TOKEN_FILE and the database from DATABASE_URL_FILE, and keeps both out of the log', async () => {
  const url = new URL(await freshDatabase());
  // A short password, also a word the log uses: redacted where it stands as a value only.
  url.password = 'store';
  const tokenFile = join(f.dataDir, 'bot_token');
  const urlFile = join(f.dataDir, 'database_url');
  writeFileSync(tokenFile, `${f.api.token}\n`);
  writeFileSync(urlFile, `${url.href}\n`);
  const bot = await f.start({ BOT_TOKEN: '', BOT_TOKEN_FILE: tokenFile, DATABASE_URL_FILE: urlFile });
  const user = f.api.createUser({ language_code: 'en' });
  f.api.sendText({ from: user, text: '/order 0007300100' });
  expect((await f.api.nextBotMessage(user.id)).text).toContain('0007300100');
  expect(bot.lines.map((line) => line.msg)).toContain('the store is PostgreSQL');
  expect(bot.stderr()).not.toContain(f.api.token);
  expect(bot.stderr()).not.toContain(':store@');
});
