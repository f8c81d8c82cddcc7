import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { BotContext } from '../../../src/bot/context.ts';
import { resumeWatches } from '../../../src/bot/middleware/resume-watches.ts';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';
import { useTempDirs } from '../../store/support.ts';

const tempDir = useTempDirs();
const target = { query: { resource: 'order' as const, filter: 'SAP_ID' as const, value: '0007300100' } };

/** An update of a chat as Telegraf's context carries it (only what the middleware reads). */
const update = (chatId: number, message: Record<string, unknown>) =>
  ({ chat: { id: chatId, type: 'group' }, message: { message_id: 1, chat: { id: chatId }, ...message }, from: { id: 7 } }) as unknown as BotContext;

describe('resumeWatches', () => {
  it('moves a group’s watches to its supergroup when Telegram says it migrated', async () => {
    const store = openSqliteStore({ dataDir: tempDir() });
    store.watches.add({ chatId: -100, target, createdBy: 7, locale: 'ru', now: 0, limitPerChat: 10, firstPollAt: 0 });
    let nextCalled = false;
    await resumeWatches(store.watches, pino({ level: 'silent' }))(update(-100, { migrate_to_chat_id: -1001234 }), async () => {
      nextCalled = true;
    });
    expect(nextCalled).toBe(true);
    expect(store.watches.list(-100)).toEqual([]);
    expect(store.watches.list(-1001234).map((watch) => watch.target)).toEqual([target]);
    store.close();
  });

  it('resumes a paused chat on its next message', async () => {
    const store = openSqliteStore({ dataDir: tempDir() });
    store.watches.add({ chatId: 42, target, createdBy: 42, locale: 'en', now: 0, limitPerChat: 10, firstPollAt: 0 });
    store.watches.pauseChat(42, 1);
    expect(store.watches.claimDue('poller', 10, 1_000, 10)).toEqual([]);
    await resumeWatches(store.watches, pino({ level: 'silent' }))(update(42, { text: '/help' }), async () => undefined);
    expect(store.watches.claimDue('poller', 10, 1_000, 10)).toHaveLength(1);
    store.close();
  });
});
