import { pino } from 'pino';
import { TelegramError } from '../../src/telegram/telegraf/core.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { targetKey } from '../../src/store/target-key.ts';
import type { WatchTarget } from '../../src/store/watch-store.ts';
import type { ChangeSet } from '../../src/watch/changes.ts';
import { createSender, type SenderOptions } from '../../src/watch/sender.ts';
import { TelegramHttpError } from '../../src/telegram/errors.ts';
import { useTempDirs } from '../store/support.ts';
import { captureLogs } from '../support/logs.ts';

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

/** Another watch in `chatId`, of a target of its own, with one notification due now. */
const pendingIn = (chatId: number, value: string) => {
  const own: WatchTarget = { query: { resource: 'order', filter: 'SAP_ID', value } };
  store.watches.add({ chatId, target: own, createdBy: chatId, locale: 'en', now, limitPerChat: 10, firstPollAt: now });
  const [claimed] = store.watches.claimDue('poller', now, 1_000, 1);
  store.watches.recordPoll(claimed!.key, 'poller', { snapshot: '{}', nextPollAt: now + 60_000, now, changes: JSON.stringify(changes) });
};

/** Notifications due at `at`, claimed by someone else for 1 ms. */
const peek = (at: number) => store.watches.claimNotifications('peek', at, 1, 100);

const sender = (more: Partial<SenderOptions> = {}) =>
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
    ...more,
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

  it('moves the watches of a group that became a supergroup, and sends it there at once', async () => {
    const { logger, lines: logs } = captureLogs('info');
    const s = sender({ logger });
    fail.push(new TelegramError({ error_code: 400, description: 'Bad Request: group chat was upgraded to a supergroup chat', parameters: { migrate_to_chat_id: -1005 } }));
    await s.tick();
    expect(sent).toEqual([expect.objectContaining({ chat_id: -1005, text: '🔔 changed' })]);
    expect(sent[0]).not.toHaveProperty('message_thread_id');
    expect(store.watches.list(5)).toEqual([]);
    expect(store.watches.list(-1005)).toMatchObject([{ chatId: -1005, target }]);
    expect(store.watches.counts().pending).toBe(0);
    expect(logs).toContainEqual(expect.objectContaining({ level: 30, chatId: 5, migratedTo: -1005 }));
  });

  it('holds every chat back after a 429 until the wait is over, without counting an attempt', async () => {
    pendingIn(6, '0007300106');
    pendingIn(8, '0007300108');
    const s = sender();
    fail.push(tooMany(30));
    expect(await s.tick()).toBe(3);
    expect(sent).toEqual([]);
    now += 29_000;
    await s.tick();
    expect(sent).toEqual([]);
    expect(peek(now + 1_000).map((notification) => [notification.chatId, notification.attempts])).toEqual([
      [5, 1],
      [6, 0],
      [8, 0],
    ]);
    now += 1_001;
    await s.tick();
    expect(sent.map((payload) => payload.chat_id)).toEqual([5, 6, 8]);
  });

  it('puts a message held back by the per-chat limit back without counting an attempt', async () => {
    pendingIn(5, '0007300105');
    const s = sender();
    await s.tick();
    expect(sent).toHaveLength(1);
    expect(peek(now + 1_000).map((notification) => notification.attempts)).toEqual([0]);
  });

  it('drops a notification it cannot render, and sends the others', async () => {
    pendingIn(6, '0007300106');
    const outcomes: string[] = [];
    const s = sender({
      render: (_changes, notification) => {
        if (notification.chatId === 5) throw new Error('no view for this');
        return { text: 'ok', keyboard: [] };
      },
      events: { outcome: (outcome) => outcomes.push(outcome), delivered: () => {} },
    });
    expect(await s.tick()).toBe(2);
    expect(sent.map((payload) => payload.chat_id)).toEqual([6]);
    expect(outcomes).toEqual(['dropped', 'sent']);
    expect(store.watches.counts().pending).toBe(0);
  });

  it('goes on with the batch when the store fails for one notification', async () => {
    pendingIn(6, '0007300106');
    const watches = store.watches;
    let broken = true;
    const delivered = (id: number) => {
      if (broken) {
        broken = false;
        throw new Error('disk I/O error');
      }
      watches.delivered(id);
    };
    expect(await sender({ store: { ...watches, delivered } }).tick()).toBe(2);
    expect(sent.map((payload) => payload.chat_id)).toEqual([5, 6]);
    // The first stays leased, and is sent again when its lease expires.
    expect(store.watches.counts().pending).toBe(1);
  });

  it('sends nothing to a chat that may no longer have watches: its watches and notifications go', async () => {
    pendingIn(-100_7, '0007300107');
    const { logger, lines } = captureLogs('info');
    const outcomes: string[] = [];
    const s = sender({ logger, isAllowed: (chatId) => chatId !== -100_7, events: { outcome: (outcome) => outcomes.push(outcome), delivered: () => {} } });
    expect(await s.tick()).toBe(2);
    expect(sent.map((payload) => payload.chat_id)).toEqual([5]);
    expect(outcomes).toEqual(['sent', 'dropped']);
    expect(store.watches.list(-100_7)).toEqual([]);
    expect(store.watches.counts()).toEqual({ watches: 1, targets: 1, pending: 0 });
    expect(lines).toContainEqual(expect.objectContaining({ audit: true, chatId: -100_7, msg: 'watches removed: the chat may no longer use the bot' }));
  });

  it('speaks the language chosen when sending, the notification’s own by default', async () => {
    const locales: string[] = [];
    const render: SenderOptions['render'] = (_changes, _notification, locale) => {
      locales.push(locale);
      return { text: locale, keyboard: [] };
    };
    await sender({ render, localeOf: async () => 'ru' as const }).tick();
    pendingIn(6, '0007300106');
    await sender({ render }).tick();
    expect(locales).toEqual(['ru', 'en']);
    expect(sent.map((payload) => payload.text)).toEqual(['ru', 'en']);
  });
});

describe('the notification sender’s leases', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now, toFake: ['setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A sender whose first send hangs until `release` is called; time is the fake clock's. */
  const slowSender = (more: Partial<SenderOptions> = {}) => {
    const hung = Promise.withResolvers<void>();
    let calls = 0;
    const s = sender({
      leaseMs: 1_000,
      batch: 2,
      now: Date.now,
      sendMessage: async (payload) => {
        calls += 1;
        if (calls === 1) await hung.promise;
        sent.push(payload);
        return true;
      },
      ...more,
    });
    return { s, release: () => hung.resolve() };
  };

  it('holds a few at a time, renewing their lease while a send takes long: the rest stay free for another process', async () => {
    for (const chatId of [6, 8, 9]) pendingIn(chatId, `000730010${chatId}`);
    const { s, release } = slowSender();
    const ticking = s.tick();
    // The first send takes ten leases: its batch is still held, the others are not.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(peek(Date.now()).map((notification) => notification.chatId)).toEqual([8, 9]);
    await vi.advanceTimersByTimeAsync(1);
    release();
    expect(await ticking).toBe(4);
    expect(sent.map((payload) => payload.chat_id)).toEqual([5, 6, 8, 9]);
    expect(store.watches.counts().pending).toBe(0);
  });

  it('leaves a notification another process took while its lease could not be renewed', async () => {
    pendingIn(6, '0007300106');
    const { logger, lines } = captureLogs('info');
    let storeDown = true;
    const watches = store.watches;
    const renewNotifications: typeof watches.renewNotifications = (...args) => {
      if (storeDown) throw new Error('the store does not answer');
      return watches.renewNotifications(...args);
    };
    const { s, release } = slowSender({ logger, store: { ...watches, renewNotifications } });
    const ticking = s.tick();
    await vi.advanceTimersByTimeAsync(1_000);
    // The lease ran out unrenewed: another process took both (the one in flight here cannot be called back).
    expect(watches.claimNotifications('other', Date.now(), 60_000, 10).map((notification) => notification.chatId)).toEqual([5, 6]);
    storeDown = false;
    await vi.advanceTimersByTimeAsync(250);
    release();
    await ticking;
    expect(sent.map((payload) => payload.chat_id)).toEqual([5]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: 'the lease of the notifications being sent could not be renewed' }));
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, chatId: 6, msg: 'a notification was held past its lease: left to the process that took it' }));
  });
});
