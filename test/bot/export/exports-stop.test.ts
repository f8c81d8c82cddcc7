import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPortal } from '../../../src/app/portal.ts';
import { createBot } from '../../../src/bot/create-bot.ts';
import { createExports } from '../../../src/bot/export/exports.ts';
import { ALLOWED_UPDATES } from '../../../src/bot/update-types.ts';
import { parseConfig } from '../../../src/config.ts';
import { createBotMetrics } from '../../../src/metrics/bot-metrics.ts';
import { openSqliteStore } from '../../../src/store/sqlite-store.ts';
import { startPolling } from '../../../src/telegram/polling-runner.ts';
import { startBotApi, type BotApi } from '../../support/bot-api/index.ts';
import { startTestPortal, type TestPortal } from '../../support/test-portal.ts';

// A graceful stop (main.ts: SIGTERM) with exports running: the real bot, long polling the strict
// emulator, exports made as main.ts makes them. Within the grace an export finishes; past it, its
// progress message says the bot is restarting, with Try again, and its directory goes.

let api: BotApi;
let portal: TestPortal;
let dir: string;
beforeAll(async () => {
  api = await startBotApi();
  portal = await startTestPortal();
  dir = mkdtempSync(join(tmpdir(), 'exports-stop-'));
});
afterAll(async () => {
  await api.close();
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

const startBot = async (name: string) => {
  const config = parseConfig({
    BOT_TOKEN: api.token,
    TELEGRAM_API_ROOT: api.apiRoot,
    PORTAL_URL: portal.url,
    PORTAL_TOKEN: portal.token,
    PORTAL_CACHE_SECONDS: '0',
    PORTAL_TIMEOUT_MS: '10000',
    ALLOW_ANYONE: 'true',
    DATA_DIR: join(dir, name),
  });
  const logger = pino({ level: 'silent' });
  const metrics = createBotMetrics();
  const opened = await openPortal(config.portal, logger, metrics);
  const store = openSqliteStore({ dataDir: config.dataDir });
  const exports = createExports({ portal: opened.portal.bulk, ...config.export, logger, now: () => new Date(), tmpDir: dir });
  const bot = createBot({ token: api.token, config, portal: opened.portal, store, logger, metrics, demo: false, exports });
  const runner = await startPolling({ bot, logger, allowedUpdates: ALLOWED_UPDATES, pollTimeoutSeconds: 1 });
  await api.waitForPolling();
  return {
    exports,
    async close() {
      await runner.stop();
      await store.close();
    },
  };
};

describe('stopping the bot with exports running', () => {
  it('waits for an export that ends within the grace: its file is sent', async () => {
    const bot = await startBot('within');
    const user = api.createUser({ language_code: 'en' });
    const held = portal.hangWhere((url) => url.includes('limit=20') && url.includes('offset=20'));
    api.sendText({ from: user, text: '/export order status production' });
    await api.waitFor(() => held.count() > 0);
    setTimeout(() => held.release(), 300);
    await bot.exports.stop(5_000);
    expect(api.documentsIn(user.id)).toHaveLength(1);
    await bot.close();
  });

  it('past the grace stops it: the progress message says so with Try again, no file, no directory left', async () => {
    const bot = await startBot('past');
    const user = api.createUser({ language_code: 'en' });
    const held = portal.hangWhere((url) => url.includes('limit=20') && url.includes('offset=20'));
    api.sendText({ from: user, text: '/export order status production' });
    await api.waitFor(() => held.count() > 0);
    const started = performance.now();
    await bot.exports.stop(300);
    expect(performance.now() - started).toBeLessThan(1_500);
    held.release();
    expect(api.documentsIn(user.id)).toEqual([]);
    const progress = api.messagesIn(user.id).at(-1);
    expect(progress?.text).toBe('The bot is restarting.\n\nThe export stopped; no file was sent.');
    expect(progress?.buttons).toEqual([{ text: '🔁 Try again', callback_data: 'e:o3=production' }]);
    expect(readdirSync(dir).filter((name) => name.startsWith('bot-export-'))).toEqual([]);
    await bot.close();
  });
});
