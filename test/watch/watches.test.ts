import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWatchStarted } from '../../src/bot/views/watch-notices.ts';
import { createWatches, type Watcher } from '../../src/watch/watches.ts';
import { DEMO_EPOCH } from '../../src/demo/motion.ts';
import { startDemoPortal } from '../../src/demo/portal-server.ts';
import { createFormatter } from '../../src/format.ts';
import { createTranslator } from '../../src/i18n.ts';
import { createMemoryBudget } from '../../src/memory-budget.ts';
import { watchPageCost } from '../../src/portal/page-cost.ts';
import { createPortalClient, type PortalClient } from '../../src/portal/client.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { WatchTarget } from '../../src/store/watch-store.ts';
import { captureLogs } from '../support/logs.ts';
import { useTempDirs } from '../store/support.ts';

// /watch's first reading against the memory that watch readings share with the poller: the real
// sqlite store and the demo portal over HTTP (21 orders in production: a page of 20 and one of 1).

const tempDir = useTempDirs();
let demo: Awaited<ReturnType<typeof startDemoPortal>>;
let store: ReturnType<typeof openSqliteStore>;
let portal: PortalClient;
beforeEach(async () => {
  demo = await startDemoPortal({ token: 'demo', clock: () => DEMO_EPOCH });
  store = openSqliteStore({ dataDir: tempDir() });
  portal = createPortalClient({ baseUrl: demo.url, token: 'demo', timeoutMs: 2_000 });
});
afterEach(async () => {
  store.close();
  await demo.close();
});

const inProduction = { resource: 'order', filter: 'STATUS', value: 'production' } as const;
const production: WatchTarget = { query: inProduction };
const who: Watcher = { chatId: 7, userId: 7, locale: 'en' };
const config = { intervalMs: 300_000, limitPerChat: 10, maxRecords: 100, memoryBytes: 0 };
/** What the first page of production orders costs a watch reading. */
const firstPageCost = async () => watchPageCost(await portal.listOrders(inProduction, { limit: 20, offset: 0 }));

describe('/watch and the memory of watch readings', () => {
  it('refuses a query whose records are more than one reading may hold, saying so, and stores nothing', async () => {
    const { logger, lines } = captureLogs();
    const memory = createMemoryBudget(Number.POSITIVE_INFINITY, (await firstPageCost()) + 1);
    const watches = createWatches({ store: store.watches, portal, config, logger, now: () => new Date(DEMO_EPOCH), memory, access: { mayWatchIn: () => true } });
    const result = await watches.start(who, production);
    expect(result).toEqual({ kind: 'tooLarge' });
    expect(renderWatchStarted(result, config.intervalMs, createTranslator('ru'), createFormatter('ru'))).toMatch(/^Записи по этому запросу слишком объёмные, чтобы следить за ними/);
    expect(await watches.list(7)).toEqual([]);
    expect(memory.used()).toBe(0);
    expect(lines).toContainEqual(expect.objectContaining({ chatId: 7, total: 21, reason: 'over', msg: 'a watch was refused: its records are more than the memory a watch poll may take' }));
  });

  it('asks to try again later while polls under way hold the memory, and watches once they gave it back', async () => {
    const cost = await firstPageCost();
    const memory = createMemoryBudget(3 * cost, 3 * cost);
    const watches = createWatches({ store: store.watches, portal, config, logger: pino({ level: 'silent' }), now: () => new Date(DEMO_EPOCH), memory, access: { mayWatchIn: () => true } });
    const poll = memory.lease();
    expect(poll.take(2.5 * cost)).toBe('ok');
    const result = await watches.start(who, production);
    expect(result).toEqual({ kind: 'busy' });
    expect(renderWatchStarted(result, config.intervalMs, createTranslator('en'), createFormatter('en'))).toBe(
      'Other watches are being checked right now and hold the memory set aside for them: please try again in a minute.',
    );
    poll.free();
    expect(await watches.start(who, production)).toMatchObject({ kind: 'added', count: 21 });
    expect(memory.used()).toBe(0);
  });

  it('says "too many records" rather than "too large" when the query is past WATCH_MAX_RECORDS too', async () => {
    const memory = createMemoryBudget(Number.POSITIVE_INFINITY, 1);
    const watches = createWatches({ store: store.watches, portal, config: { ...config, maxRecords: 3 }, logger: pino({ level: 'silent' }), now: () => new Date(DEMO_EPOCH), memory, access: { mayWatchIn: () => true } });
    expect(await watches.start(who, production)).toEqual({ kind: 'tooMany', total: 21, max: 3 });
  });
});
