import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

// Watches end to end: the real bot and its poller against the strict emulator and the demo portal,
// whose clock the tests step (order 0007300100's status moves every minute, specification
// ДП-77/2026 № 1 gets an act every second minute). WATCH_INTERVAL_SECONDS 1: every watched query
// is due a second later on the harness's clock; `poll()` moves it on and runs one round of polls and sends.

const MINUTE = 60_000;
let h: Harness;
beforeAll(async () => {
  // The breaker opens during the outage test as it would in production; a short open period
  // lets the test see the portal come back within a few rounds.
  h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1', PORTAL_CIRCUIT_OPEN_SECONDS: '1' } });
});
afterAll(async () => {
  if (process.env.DEBUG_WATCH) for (const line of h.logs) if (Number(line.level) >= 40 || String(line.msg).includes('watch')) console.log(JSON.stringify(line).slice(0, 400));
  await h.close();
});

const INTERVAL_MS = 1_000;
/** A watch interval passes: every watched query is due again; one round of polls, then the notifications they queued. */
const poll = async () => {
  h.advance(INTERVAL_MS);
  await h.watches().runOnce();
  await h.watches().runOnce();
};
/** Runs rounds of polls and sends, a fifth of the interval apart, until `done` holds (or fails after 8 s of the clock). */
const eventually = async (done: () => boolean) => {
  for (let round = 0; !done(); round += 1) {
    if (round >= 40) throw new Error('watches: the expected notifications did not come');
    h.advance(INTERVAL_MS / 5);
    await h.watches().runOnce();
  }
};
/** The chat's change notifications (not the confirmations of /watch, which start alike). */
const notifications = (chatId: number) =>
  h.api.messagesIn(chatId).filter((message) => message.text.startsWith('🔔') && !/^🔔 (Слежу за|Watching):/.test(message.text));
const portalCalls = (sapId: string) => h.portal.requests.filter((url) => url.includes(`SAP_ID=${sapId}`)).length;

describe('a watched order', () => {
  it('tells every watching chat of a status change once, each in its language, and nothing while nothing changes', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    const en = h.api.createUser({ language_code: 'en' });
    await h.ask(ru, '/watch 0007300100');
    await h.ask(en, '/watch 0007300100');
    await poll();
    await poll();
    expect(notifications(ru.id)).toEqual([]);
    expect(notifications(en.id)).toEqual([]);

    h.portal.advanceDemoClock(MINUTE);
    await eventually(() => notifications(ru.id).length > 0 && notifications(en.id).length > 0);
    await poll();
    const [toRu, ...moreRu] = notifications(ru.id);
    const [toEn, ...moreEn] = notifications(en.id);
    expect(moreRu).toEqual([]);
    expect(moreEn).toEqual([]);
    expect(toRu?.text).toContain('Заказ № 0007300100');
    expect(toRu?.text).toContain('Статус: Производство → Отгружен');
    expect(toEn?.text).toContain('Order No. 0007300100');
    expect(toEn?.text).toContain('Status: Производство → Отгружен');
    expect(toRu?.buttons.map((button) => button.text)).toContain('🔕 Не следить');
    expect(h.logs).toContainEqual(expect.objectContaining({ audit: true, chatId: ru.id, records: 1, msg: 'notification sent' }));
    const metrics = await h.metrics.registry.render();
    expect(metrics).toMatch(/^orderbot_notifications_total\{outcome="sent"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^orderbot_watch_polls_total\{outcome="ok"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^orderbot_watch_changes_total [1-9]\d*$/m);
    expect(metrics).toMatch(/^orderbot_notification_delay_seconds_count [1-9]\d*$/m);
    expect(metrics).toMatch(/^orderbot_watches [1-9]\d*$/m);
    expect(metrics).toMatch(/^orderbot_watched_queries [1-9]\d*$/m);
  });

  it('polls a query watched by two chats once per interval', async () => {
    const first = h.api.createUser({ language_code: 'en' });
    const second = h.api.createUser({ language_code: 'en' });
    await h.ask(first, '/watch 0007300372');
    await h.ask(second, '/watch 0007300372');
    const before = portalCalls('0007300372');
    await poll();
    await poll();
    await poll();
    // One call per interval for both chats together, not one per chat.
    expect(portalCalls('0007300372') - before).toBe(3);
  });

  it('tells nothing during a portal outage, and only the real change once it is back', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/watch 0007300100');
    await poll();
    h.portal.fail('http500');
    h.portal.advanceDemoClock(MINUTE);
    await poll();
    await poll();
    expect(notifications(user.id)).toEqual([]);
    h.portal.fail(undefined);
    await eventually(() => notifications(user.id).length > 0);
    await poll();
    expect(notifications(user.id)).toHaveLength(1);
    expect(notifications(user.id)[0]?.text).toContain('Status: Отгружен → Оценка производства');
  });

  it('tells a change made while the bot was stopped once, after it starts', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/watch 0007300100');
    await poll();
    await h.down();
    h.portal.advanceDemoClock(MINUTE);
    await h.up();
    await eventually(() => notifications(user.id).length > 0);
    await poll();
    await poll();
    expect(notifications(user.id)).toHaveLength(1);
  });

  it('stops when its 🔕 is pressed', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/watch 0007300100');
    await poll();
    h.portal.advanceDemoClock(MINUTE);
    await eventually(() => notifications(user.id).length > 0);
    const [told] = notifications(user.id);
    expect(told).toBeDefined();
    const { answer } = await h.press(user, told!, h.button(told, '🔕 Stop watching'));
    expect(answer?.text).toBe('Stopped watching');
    h.portal.advanceDemoClock(MINUTE);
    await poll();
    await poll();
    expect(notifications(user.id)).toHaveLength(1);
  });
});

describe('a watched contract in a forum topic', () => {
  it('tells of a new document on one of its specifications, in the topic', async () => {
    const member = h.api.createUser({ language_code: 'ru' });
    const group = h.api.createGroup({ type: 'supergroup', forum: true });
    h.api.sendText({ from: member, chat: group, threadId: 7, text: '/watch spec ДП-77/2026' });
    await h.settle();
    await poll();
    h.portal.advanceDemoClock(2 * MINUTE);
    await eventually(() => notifications(group.id).length > 0);
    await poll();
    const told = notifications(group.id);
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain('Новый документ: АКТ-');
    expect(told[0]?.message_thread_id).toBe(7);
  });
});

describe('a chat that blocked the bot', () => {
  it('is not written to again and again, and hears again once it writes', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/watch 0007300100');
    await poll();
    h.api.blockBot(user.id);
    h.portal.advanceDemoClock(MINUTE);
    await eventually(() => h.logs.some((line) => line.chatId === user.id && line.msg === 'chat unreachable: its watches are paused until it writes again'));
    const attempts = () => h.api.callsTo('sendMessage', { chatId: user.id }).length;
    const afterBlock = attempts();
    h.portal.advanceDemoClock(MINUTE);
    await poll();
    await poll();
    expect(attempts()).toBe(afterBlock);
    expect(h.logs).toContainEqual(expect.objectContaining({ chatId: user.id, msg: 'chat unreachable: its watches are paused until it writes again' }));

    h.api.blockBot(user.id, false);
    await h.ask(user, '/help');
    h.portal.advanceDemoClock(MINUTE);
    await eventually(() => notifications(user.id).length > 0);
    expect(notifications(user.id)).toHaveLength(1);
  });
});
