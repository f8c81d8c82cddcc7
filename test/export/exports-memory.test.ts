import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPortal } from '../../src/app/portal.ts';
import { createBot } from '../../src/bot/create-bot.ts';
import { createExports } from '../../src/export/exports.ts';
import { ALLOWED_UPDATES } from '../../src/bot/update-types.ts';
import { parseConfig } from '../../src/config.ts';
import { createExportPageCost } from '../../src/portal/page-cost.ts';
import { createBotMetrics } from '../../src/metrics/bot-metrics.ts';
import { createPortalClient } from '../../src/portal/client.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { startPolling } from '../../src/telegram/polling-runner.ts';
import { startBotApi, type BotApi } from '../support/bot-api/index.ts';
import { startTestPortal, type TestPortal } from '../support/test-portal.ts';

// The memory of the exports, as main.ts makes them: the real bot, long polling the strict
// emulator, against the test portal's 21 orders in production (a page of 20 and a page of 1).

let api: BotApi;
let portal: TestPortal;
let dir: string;
beforeAll(async () => {
  api = await startBotApi();
  portal = await startTestPortal();
  dir = mkdtempSync(join(tmpdir(), 'exports-memory-'));
});
afterAll(async () => {
  await api.close();
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

const query = { resource: 'order', filter: 'STATUS', value: 'production' } as const;

describe('the memory an export may take', () => {
  it('is given back when the export ends: the next one in line gets the whole of its share', async () => {
    // Room for exactly the first page: each export is cut at 20 of 21.
    const first = await createPortalClient({ baseUrl: portal.url, token: portal.token, timeoutMs: 5_000 }).listOrders(query, { limit: 20, offset: 0 });
    const config = parseConfig({
      BOT_TOKEN: api.token,
      TELEGRAM_API_ROOT: api.apiRoot,
      PORTAL_URL: portal.url,
      PORTAL_TOKEN: portal.token,
      PORTAL_CACHE_SECONDS: '0',
      ALLOW_ANYONE: 'true',
      DATA_DIR: join(dir, 'data'),
      EXPORT_CONCURRENCY: '1',
    });
    const logger = pino({ level: 'silent' });
    const metrics = createBotMetrics();
    const opened = await openPortal(config.portal, logger, metrics);
    const store = openSqliteStore({ dataDir: config.dataDir });
    const exports = createExports({ portal: opened.portal.bulk, ...config.export, memoryBytes: createExportPageCost()(first) + 1, logger, now: () => new Date(), tmpDir: dir });
    const bot = createBot({ token: api.token, config, portal: opened.portal, store, logger, metrics, demo: false, exports });
    const runner = await startPolling({ bot, logger, allowedUpdates: ALLOWED_UPDATES, pollTimeoutSeconds: 1 });
    await api.waitForPolling();

    const users = [api.createUser({ language_code: 'en' }), api.createUser({ language_code: 'en' })];
    for (const user of users) api.sendText({ from: user, text: '/export order status production' });
    await api.waitFor(() => users.every((user) => api.documentsIn(user.id).length === 1));
    await exports.idle();
    for (const user of users) {
      expect(api.documentsIn(user.id)[0]!.caption).toContain(
        'The file holds the first 20 of 21: these records are so large that no more fit in the memory one export may take. Narrow the search to export them all.',
      );
    }
    // The second waited in line for the first.
    expect(api.callsTo('sendMessage', { chatId: users[1]!.id })[0]?.params.text).toMatch(/^Waiting in line/);
    await runner.stop();
    await store.close();
    await opened.close();
  });
});
