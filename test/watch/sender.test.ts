import { pino } from 'pino';
import { TelegramError } from 'telegraf';
import { beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { targetKey } from '../../src/store/target-key.ts';
import type { WatchTarget } from '../../src/store/watch-store.ts';
import type { ChangeSet } from '../../src/watch/changes.ts';
import { createSender } from '../../src/watch/sender.ts';
import { TelegramHttpError } from '../../src/telegram/errors.ts';
import { useTempDirs } from '../store/support.ts';

// The sender on the real sqlite store; Telegram's side is the function it sends through, failing
// as Telegram does.

const tempDir = useTempDirs();
const target: WatchTarget = { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } };
const changes: ChangeSet = { resource: 'order', foundAt: 0, changes: [{ sapId: '0007300100', kind: 'changed', title: {}, changes: [] }] };

let now: number;
let store: ReturnType<typeof openSqliteStore>;
let sent: Array<Record<string, unknown>>;
let fail: Array<Error | undefined>;

beforeEach(() => {
  now = Date.UTC(2026, 10, 23, 12);
  sent = [];
  fail = [];
  store = openSqliteStore({ dataDir: tempDir() });
  store.watches.add({ chatId: 5, threadId: 7, target, createdBy: 5, locale: 'en', now, limitPerChat: 10, firstPollAt: now });
  const [claimed] = store.watches.claimDue('poller', now, 1_000, 1);
  store.watches.recordPoll(claimed!.key, 'poller', { snapshot: '{}', nextPollAt: now + 60_000, now, changes: JSON.stringify(changes) });
});

const sender = () =>
  createSender({
    store: store.watches,
    sendMessage: async (payload) => {
      const error = fail.shift();
      if (error) throw error;
      sent.push(payload);
      return true;
    },
    render: () => ({ text: '🔔 changed', keyboard: [] }),
    logger: pino({ level: 'silent' }),
    owner: 'me',
    leaseMs: 10_000,
    batch: 10,
    quietHours: undefined,
    timeZone: 'UTC',
    now: () => now,
  });

const tooMany = (seconds: number) => new TelegramError({ error_code: 429, description: 'Too Many Requests', parameters: { retry_after: seconds } });

describe('the notification sender', () => {
  it('sends a pending notification once, in its topic', async () => {
    const s = sender();
    expect(await s.tick()).toBe(1);
    expect(sent).toEqual([expect.objectContaining({ chat_id: 5, message_thread_id: 7, text: '🔔 changed', parse_mode: 'HTML' })]);
    now += 60_000;
    expect(await s.tick()).toBe(0);
    expect(sent).toHaveLength(1);
  });

  it('waits out a 429 and then sends', async () => {
    const s = sender();
    fail.push(tooMany(30));
    await s.tick();
    now += 29_000;
    expect(await s.tick()).toBe(0);
    now += 1_000;
    await s.tick();
    expect(sent).toHaveLength(1);
  });

  it('pauses a chat that blocked the bot, and sends it nothing until it resumes', async () => {
    const s = sender();
    fail.push(new TelegramError({ error_code: 403, description: 'Forbidden: bot was blocked by the user' }));
    await s.tick();
    expect(store.watches.counts().pending).toBe(0);
    expect(store.watches.claimDue('poller', now + 120_000, 1_000, 10)).toEqual([]);
    expect(store.watches.resumeChat(5)).toBe(true);
    expect(store.watches.claimDue('poller', now + 120_000, 1_000, 10).map((claimed) => claimed.key)).toEqual([targetKey(target)]);
  });

  it('sends to the group itself when the topic is gone', async () => {
    const s = sender();
    fail.push(new TelegramError({ error_code: 400, description: 'Bad Request: message thread not found' }));
    await s.tick();
    expect(sent).toEqual([expect.not.objectContaining({ message_thread_id: expect.anything() })]);
  });

  it('retries a failure on the way with backoff', async () => {
    const s = sender();
    fail.push(new TelegramHttpError('sendMessage', 502, 'bad gateway'));
    await s.tick();
    expect(sent).toEqual([]);
    expect(store.watches.counts().pending).toBe(1);
    now += 1_000;
    await s.tick();
    expect(sent).toHaveLength(1);
    expect(store.watches.counts().pending).toBe(0);
  });

  it('drops what Telegram refuses for good, rather than trying forever', async () => {
    const s = sender();
    fail.push(new TelegramError({ error_code: 400, description: 'Bad Request: message is too long' }));
    await s.tick();
    expect(sent).toEqual([]);
    expect(store.watches.counts().pending).toBe(0);
  });
});
