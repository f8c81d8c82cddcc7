import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

// /stats: usage at a glance for admins, today, 7 and 30 days, from the counters the bot keeps
// in the store (not from logs). The harness's clock stands still: a portal call takes 0 ms unless
// the test holds it and moves the clock on meanwhile.

let h: Harness;
const ADMIN = 930_001;
const USER = 930_002;
const DAY = 86_400_000;
beforeAll(async () => {
  h = await startHarness({ env: { ALLOW_ANYONE: 'false', ADMIN_USER_IDS: String(ADMIN), ALLOWED_USER_IDS: String(USER), WATCH_INTERVAL_SECONDS: '1' } });
  const user = h.api.createUser({ id: USER, language_code: 'en' });
  // Day one: lookups asked each way, one that took 300 ms, one the portal failed, an export, a watch and its notification.
  await h.ask(user, '/order 0007300100');
  const results = await h.ask(user, '/order status production');
  await h.press(user, results, h.button(results, '▶'));
  await h.api.waitForInlineAnswer(h.api.sendInlineQuery({ from: user, query: 'spec ДП-77/2026' }));
  const hold = h.portal.hangWhere((target) => target.includes('0007300117'));
  const slow = h.ask(user, '/order 0007300117');
  await h.api.waitFor(() => hold.count() === 1);
  h.advance(300);
  hold.release();
  await slow;
  h.portal.failNext('http500', 2);
  expect((await h.ask(user, '/order 0007300134')).text).toContain('The portal answered with an error');
  h.api.sendText({ from: user, text: '/export order 0007300100' });
  await h.api.waitFor(() => h.api.documentsIn(USER).length === 1);
  // The progress message, then the file: both seen, so that the next answer is the next message.
  while ((await h.api.nextBotMessage(USER)).document === undefined);
  expect((await h.ask(user, '/watch 0007300100')).text).toMatch(/^🔔 Watching/);
  h.portal.advanceDemoClock(60_000);
  for (let round = 0; round < 20 && !h.api.messagesIn(USER).some((message) => message.text.startsWith('🔔 Changes')); round += 1) {
    h.advance(1_000);
    await h.watches().runOnce();
  }
  expect((await h.api.nextBotMessage(USER)).text).toMatch(/^🔔 Changes/);
  // Two days later, one more lookup.
  h.advance(2 * DAY);
  // Not the watched order: a lookup of that could join the watch's poll under way instead of asking the portal.
  expect((await h.ask(user, '/order 0007300151')).text).toContain('Order No. 0007300');
});
afterAll(() => h.close());

const stats = async (language: 'ru' | 'en') => (await h.ask(h.api.createUser({ id: ADMIN, language_code: language }), '/stats')).text.split('\n');

describe('/stats', () => {
  it('en: active users, lookups by how they were asked and by resource, exports, watches, notifications, the portal, top filters', async () => {
    const lines = await stats('en');
    expect(lines.slice(0, 12)).toEqual([
      '📊 Usage: today · 7 days · 30 days',
      // The user on both days, the admin today.
      'Active users: 2 · 2 · 2',
      'Lookups: 1 · 7 · 7',
      '  by command: 1 · 5 · 5',
      '  by button: 0 · 1 · 1',
      '  inline: 0 · 1 · 1',
      '  orders: 1 · 6 · 6',
      '  specifications: 0 · 1 · 1',
      'Excel exports: 0 · 1 · 1',
      'Watches added: 0 · 1 · 1',
      'Notifications sent: 0 · 1 · 1',
      '',
    ]);
    const portal = lines.slice(12, 18);
    expect(portal[0]).toBe('Portal');
    // Today one call of 0 ms; over the week, calls of 0 ms and one of 300 ms.
    expect(portal[1]).toMatch(/^ {2}answer time p50: 5 ms · \d ms · \d ms$/);
    // The week's p95 falls on the 300 ms call: in the histogram's bucket from 200 to 300 ms.
    expect(portal[2]).toMatch(/^ {2}answer time p95: 10 ms · [23]\d\d ms · [23]\d\d ms$/);
    // The portal's two answers of HTTP 500 (the call and its retry).
    expect(portal[3]).toMatch(/^ {2}failures: 0 · 2 · 2 \(of 1 · \d+ · \d+ calls\)$/);
    expect(portal[4]).toBe('  circuit opened: 0 · 0 · 0');
    expect(portal[5]).toBe('  circuit breaker: closed (calls go through)');
    expect(lines.slice(18)).toEqual(['', 'Top filters (30 days, values not shown):', '  1. orders, SAP no.: 4', '  2. orders, status: 2', '  3. specifications, contract no.: 1']);
  });

  it('ru: the same, in Russian', async () => {
    const lines = await stats('ru');
    expect(lines[0]).toBe('📊 Статистика: сегодня · 7 дней · 30 дней');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Активных пользователей: 2 · 2 · 2',
        'Поисков: 1 · 7 · 7',
        '  командой: 1 · 5 · 5',
        '  кнопкой: 0 · 1 · 1',
        '  инлайн: 0 · 1 · 1',
        '  заказы: 1 · 6 · 6',
        'Выгрузок в Excel: 0 · 1 · 1',
        'Добавлено наблюдений: 0 · 1 · 1',
        'Отправлено уведомлений: 0 · 1 · 1',
        '  предохранитель: замкнут (запросы идут)',
        'Частые фильтры (30 дней, без значений):',
        '  1. заказы, номер SAP: 4',
      ]),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}время ответа p95: 10 мс · [23]\d\d мс · [23]\d\d мс$/));
  });

  it('counts what every replica added to the store: the counters are flushed there, not kept per process', async () => {
    await h.restart();
    const lines = await stats('en');
    expect(lines[2]).toBe('Lookups: 1 · 7 · 7');
    expect(lines[8]).toBe('Excel exports: 0 · 1 · 1');
  });
});
