import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPortal } from '../../src/app/portal.ts';
import { createBot } from '../../src/bot/create-bot.ts';
import { createExports } from '../../src/export/exports.ts';
import { ALLOWED_UPDATES } from '../../src/bot/update-types.ts';
import { parseConfig } from '../../src/config.ts';
import { createBotMetrics } from '../../src/metrics/bot-metrics.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { startPolling } from '../../src/telegram/polling-runner.ts';
import { startBotApi, type BotApi } from '../support/bot-api/index.ts';
import { startTestPortal, type TestPortal } from '../support/test-portal.ts';

// A graceful stop (main.ts: SIGTERM) with exports running: the real bot, long polling the strict
// emulator, exports made as main.ts makes them. Within the grace an export finishes; past it, its
// progress message says the bot is restarting, with Try again, and its directory goes. And uploads
// Telegram never answers, which must neither outlast the grace nor hold an export's slot.

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

const startBot = async (name: string, { env = {}, uploadDeadlineMs }: { env?: Record<string, string>; uploadDeadlineMs?: (bytes: number) => number } = {}) => {
  const config = parseConfig({
    BOT_TOKEN: api.token,
    TELEGRAM_API_ROOT: api.apiRoot,
    PORTAL_URL: portal.url,
    PORTAL_TOKEN: portal.token,
    PORTAL_CACHE_SECONDS: '0',
    PORTAL_TIMEOUT_MS: '10000',
    ALLOW_ANYONE: 'true',
    DATA_DIR: join(dir, name),
    ...env,
  });
  const logger = pino({ level: 'silent' });
  const metrics = createBotMetrics();
  const opened = await openPortal(config.portal, logger, metrics);
  const store = openSqliteStore({ dataDir: config.dataDir });
  const exports = createExports({ portal: opened.portal.bulk, ...config.export, logger, now: () => new Date(), tmpDir: dir, ...(uploadDeadlineMs ? { uploadDeadlineMs } : {}) });
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

  it('during an upload Telegram does not answer, gives the upload up within the grace: the message says so, the directory goes', async () => {
    const bot = await startBot('upload');
    const user = api.createUser({ language_code: 'en' });
    const held = api.holdNext('sendDocument');
    api.sendText({ from: user, text: '/export order status production' });
    await api.waitFor(() => held.count() > 0);
    expect(api.messagesIn(user.id).at(-1)?.text).toBe('Writing the Excel file…');
    const started = performance.now();
    await bot.exports.stop(1_000);
    expect(performance.now() - started).toBeLessThan(1_400);
    held.release();
    expect(api.documentsIn(user.id)).toEqual([]);
    const progress = api.messagesIn(user.id).at(-1);
    expect(progress?.text).toBe('The bot is restarting.\n\nThe export stopped; no file was sent.');
    expect(progress?.buttons).toEqual([{ text: '🔁 Try again', callback_data: 'e:o3=production' }]);
    expect(readdirSync(dir).filter((name) => name.startsWith('bot-export-'))).toEqual([]);
    await bot.close();
  });

  it('takes one grace in all, even when an export cannot end (its upload and the edit telling of it unanswered)', async () => {
    const bot = await startBot('one-grace');
    const user = api.createUser({ language_code: 'en' });
    const upload = api.holdNext('sendDocument');
    api.sendText({ from: user, text: '/export order status production' });
    await api.waitFor(() => upload.count() > 0);
    const telling = api.holdNext('editMessageText');
    const started = performance.now();
    await bot.exports.stop(1_000);
    expect(performance.now() - started).toBeLessThan(1_400);
    expect(telling.count()).toBe(1);
    telling.release();
    upload.release();
    await bot.exports.idle();
    expect(api.messagesIn(user.id).at(-1)?.text).toBe('The bot is restarting.\n\nThe export stopped; no file was sent.');
    expect(readdirSync(dir).filter((name) => name.startsWith('bot-export-'))).toEqual([]);
    await bot.close();
  });
});

describe('uploads Telegram never answers', () => {
  it('fail at their own deadline with Try again, freeing their slots for the export waiting in line', async () => {
    const bot = await startBot('stuck', { env: { EXPORT_CONCURRENCY: '2' }, uploadDeadlineMs: () => 800 });
    const [first, second, third] = [1, 2, 3].map(() => api.createUser({ language_code: 'en' }));
    const held = api.holdNext('sendDocument', { times: 2 });
    api.sendText({ from: first!, text: '/export order status production' });
    api.sendText({ from: second!, text: '/export spec ДП-77/2026' });
    await api.waitFor(() => held.count() === 2);
    api.sendText({ from: third!, text: '/export order status production' });
    const waiting = await api.nextBotMessage(third!.id);
    expect(waiting.text).toBe('Waiting in line: other exports are running, this one is number 1 in line.');
    // The stuck ones are told, and may try again; the one in line then runs and its file comes.
    for (const user of [first!, second!]) {
      const told = await api.waitFor(() => api.messagesIn(user.id).find((message) => message.text.includes('no file was sent')));
      expect(told.text).toBe('Telegram did not take the file in time.\n\nThe export stopped; no file was sent.');
      expect(told.buttons.map((button) => button.text)).toEqual(['🔁 Try again']);
    }
    await api.waitFor(() => api.documentsIn(third!.id).length === 1);
    await bot.exports.idle();
    held.release();
    expect(api.documentsIn(first!.id)).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.startsWith('bot-export-'))).toEqual([]);
    await bot.close();
  });
});
