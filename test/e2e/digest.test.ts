import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/telegram/telegraf/core.ts';
import { HARNESS_START, startHarness, type Harness } from '../support/harness.ts';
import { rawSpecification, specificationPosition } from '../fixtures/portal-records.ts';

// The daily digest end to end (issue 33): the real bot, its watch loop on the harness's clock
// (moved, never waited for), the strict emulator and the demo portal. The harness starts at
// 14:05 in Moscow, 16:05 in Yekaterinburg, on 23.11.2026; a digest at 09:00 in Yekaterinburg is
// due at 04:00 UTC on 24.11. Order 0007300100's status moves when the demo clock does; contract
// ПЛАН-77 is served by the test (its positions are planned within the week and after it).

const MINUTE = 60_000;
const DIGEST_AT = Date.parse('2026-11-24T04:00:00Z');
let h: Harness;

const planned = (id: number, name: string, day: string | null) => specificationPosition(id, { MATERIAL_NAME: name, DATE_PLANNED_PRODUCTION: day === null ? null : `${day} 00:00:00` });
const PLAN = {
  ...rawSpecification(),
  SAP_ID: '0040099999',
  SPECIFICATION_NUMBER: '7',
  CONTRACT_NUMBER: 'ПЛАН-77',
  POSITION: [
    planned(1, 'Труба 530х8', '2026-11-25'),
    planned(2, 'Труба э/с 133х4,5', '2026-11-29'),
    planned(3, 'Труба 1020х12', '2026-12-05'),
    planned(4, 'Труба 219х6', null),
  ],
};

// A contract with so many positions planned this week that its digest takes more than one message.
const LONG_POSITIONS = 120;
const LONG = {
  ...PLAN,
  SAP_ID: '0040099998',
  SPECIFICATION_NUMBER: '8',
  CONTRACT_NUMBER: 'ДЛИННЫЙ-8',
  POSITION: Array.from({ length: LONG_POSITIONS }, (_, index) =>
    planned(index + 1, `Труба электросварная прямошовная 530х8 К52 ГОСТ 20295-85, партия ${index + 1}`, `2026-11-${24 + (index % 7)}`),
  ),
};

beforeAll(async () => {
  h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1' } });
  for (const [contract, record] of [['ПЛАН-77', PLAN], ['ДЛИННЫЙ-8', LONG]] as const) {
    h.portal.answerWhere(
      (url) => decodeURIComponent(url).includes(contract),
      (url) => ({ body: { success: true, error_code: null, data: { result: [record], total: 1, limit: Number(url.searchParams.get('limit')), offset: 0 } } }),
    );
  }
});
afterAll(() => h.close());

/** Moves the bot's clock to `at` and runs rounds until the work due by then is done. */
const runAt = async (at: number) => {
  h.clock.now = new Date(at);
  await h.watches().runOnce();
  await h.watches().runOnce();
};
const digests = (chatId: number) => h.api.messagesIn(chatId).filter((message) => message.text.startsWith('🗓 Сводка на') || message.text.startsWith('🗓 Digest for'));
const notifications = (chatId: number) => h.api.messagesIn(chatId).filter((message) => /^🔔 (Изменения|Changes)/.test(message.text));
const metric = async (name: string) => Number(new RegExp(`^orderbot_${name.replace(/[{}"]/g, '\\$&')} (\\d+)$`, 'm').exec(await h.metrics.registry.render())?.[1] ?? 0);
const portalCalls = () => h.portal.requests.length;
/** The bot's answer to a text, past what it sent the chat before (a digest, say). */
const latest = (user: User, text: string) => {
  const after = Math.max(0, ...h.api.messagesIn(user.id).map((message) => message.message_id));
  const reply = h.api.nextBotMessage(user.id, { after });
  h.api.sendText({ from: user, text });
  return reply;
};

/** A user in their private chat with the zone and the watches of the test; the clock back at the start. */
const subscriber = async (languageCode: 'ru' | 'en', commands: string[]): Promise<User> => {
  h.clock.now = HARNESS_START;
  const user = h.api.createUser({ language_code: languageCode });
  for (const command of commands) await h.ask(user, command);
  return user;
};

describe('the daily digest', () => {
  it('Russian: at 09:00 in the chat’s zone, one message: what changed, the status of each record, the week’s plan; once a day; no extra portal call', async () => {
    const user = await subscriber('ru', []);
    expect((await h.ask(user, '/timezone Asia/Yekaterinburg')).text).toBe(
      '🕒 Часовой пояс: Asia/Yekaterinburg, сейчас 16:05. По нему показываются время в сообщениях, сводка и тихие часы.',
    );
    await h.ask(user, '/watch 0007300100');
    await h.ask(user, '/watch spec ПЛАН-77');
    const set = await h.ask(user, '/digest 09:00');
    expect(set.text).toBe(
      '🗓 Сводка — каждый день в 09:00 (Asia/Yekaterinburg): что изменилось в слежениях чата, текущий статус каждой записи и план производства на неделю. Следующая — 24.11.2026 09:00.',
    );
    // A status change: told at once (the watch is instant) and kept for the digest.
    await runAt(HARNESS_START.getTime() + 1_000);
    h.portal.advanceDemoClock(MINUTE);
    await runAt(HARNESS_START.getTime() + 2_000);
    await runAt(HARNESS_START.getTime() + 3_000);
    expect(notifications(user.id)).toHaveLength(1);
    expect(notifications(user.id)[0]?.text).toContain('Статус: Производство → Отгружен');

    await runAt(DIGEST_AT - 1_000);
    expect(digests(user.id)).toEqual([]);
    const [callsBefore, pollsBefore, preparedBefore] = [portalCalls(), await metric('watch_polls_total{outcome="ok"}'), await metric('digests_total{outcome="prepared"}')];
    await runAt(DIGEST_AT);
    // Each poll of the round is one page: the digest itself asked nothing.
    expect(portalCalls() - callsBefore).toBe((await metric('watch_polls_total{outcome="ok"}')) - pollsBefore);
    expect((await metric('digests_total{outcome="prepared"}')) - preparedBefore).toBe(1);
    const [digest, ...more] = digests(user.id);
    expect(more).toEqual([]);
    expect(digest?.text).toBe(
      [
        '🗓 Сводка на 24.11.2026',
        'Что изменилось с 23.11.2026 16:05',
        'заказы, номер SAP «0007300100»\n• Заказ № 0007300100 от 18.11.2025: Статус: Производство → Отгружен',
        'Статус сейчас',
        'заказы, номер SAP «0007300100»\n• Заказ № 0007300100 от 18.11.2025 — Отгружен',
        'спецификации, номер договора «ПЛАН-77»\n• Спецификация № 7 · договор ПЛАН-77 — 20 (тип ZSD_DOG)',
        'План производства на неделю',
        '25.11.2026\n• Спецификация № 7 · договор ПЛАН-77, поз. 000010, Труба 530х8',
        '29.11.2026\n• Спецификация № 7 · договор ПЛАН-77, поз. 000020, Труба э/с 133х4,5',
      ].join('\n\n'),
    );
    // A digest the chat asked for comes with sound.
    expect(h.api.callsTo('sendMessage', { chatId: user.id }).at(-1)?.params.disable_notification).toBeUndefined();
    // Once a day: the next rounds that day send nothing; the next day, one more, with nothing changed.
    await runAt(DIGEST_AT + MINUTE);
    await runAt(DIGEST_AT + 12 * 60 * MINUTE);
    expect(digests(user.id)).toHaveLength(1);
    await runAt(DIGEST_AT + 24 * 60 * MINUTE);
    expect(digests(user.id)).toHaveLength(2);
    expect(digests(user.id)[1]?.text).toContain('С 24.11.2026 09:00 ничего не изменилось.');
    expect(h.logs).toContainEqual(expect.objectContaining({ audit: true, chatId: user.id, msg: 'digest prepared', messages: 1 }));
  });

  it('English: a quiet digest says nothing on a day with nothing to tell; one that is not quiet says it in one line', async () => {
    const quiet = await subscriber('en', ['/watch 0007300372', '/digest 08:30 quiet']);
    const loud = await subscriber('en', ['/watch 0007300372']);
    expect((await h.ask(loud, '/digest 8:30')).text).toBe(
      "🗓 Digest every day at 08:30 (Europe/Moscow): what changed in this chat's watches, the current status of each record and the week's production plan. Next: 24 Nov 2026, 08:30.",
    );
    expect((await h.ask(quiet, '/digest')).text.split('\n')[0]).toBe('🗓 Digest: every day at 08:30 (Europe/Moscow), next 24 Nov 2026, 08:30. On days with nothing to tell, nothing is sent.');
    const due = Date.parse('2026-11-24T05:30:00Z');
    await runAt(due - 1_000);
    await runAt(due);
    expect(digests(quiet.id)).toEqual([]);
    expect(digests(loud.id).map((message) => message.text)).toEqual(['🗓 Digest for 24 Nov 2026: 1 record watched, none changed.']);
    // Off: no more digests (the digest read first, as the chat's latest message).
    await h.api.nextBotMessage(loud.id);
    expect((await h.ask(loud, '/digest off')).text).toBe('The digest is off.');
    expect((await h.ask(loud, '/digest off')).text).toBe('This chat has no digest.');
    await runAt(due + 24 * 60 * MINUTE);
    expect(digests(loud.id)).toHaveLength(1);
  });

  it('Russian and English: /settings shows the zone and the digest, with buttons for the Russian zones and the digest times', async () => {
    const user = await subscriber('ru', []);
    const settings = await h.ask(user, '/settings');
    expect(settings.text).toContain('Часовой пояс: Europe/Moscow\nСводка: нет');
    const { message: zones } = await h.press(user, settings, h.button(settings, '🕒 Часовой пояс'));
    expect(zones?.buttons.map((button) => button.text)).toContain('✓ Москва, UTC+3');
    const { answer, message: set } = await h.press(user, zones!, h.button(zones, 'Новосибирск, UTC+7'));
    expect(answer?.text).toBe('Asia/Novosibirsk');
    expect(set?.text).toBe('🕒 Часовой пояс: Asia/Novosibirsk, сейчас 18:05. По нему показываются время в сообщениях, сводка и тихие часы.');
    await h.ask(user, '/watch 0007300100');
    const again = await h.ask(user, '/settings');
    const { message: times } = await h.press(user, again, h.button(again, '🗓 Сводка'));
    const { message: digest } = await h.press(user, times!, h.button(times, '09:00'));
    expect(digest?.text).toMatch(/^🗓 Сводка — каждый день в 09:00 \(Asia\/Novosibirsk\).*Следующая — 24\.11\.2026 09:00\.$/);
    expect((await h.ask(user, '/settings')).text).toContain('Часовой пояс: Asia/Novosibirsk\nСводка: в 09:00');

    const english = await subscriber('en', []);
    const chosen = await h.ask(english, '/timezone');
    expect(chosen.text).toContain('🕒 Time zone: Europe/Moscow (the default), now 14:05.');
    const { message: kaliningrad } = await h.press(english, chosen, h.button(chosen, 'Kaliningrad, UTC+2'));
    expect(kaliningrad?.text).toMatch(/^🕒 Time zone: Europe\/Kaliningrad, now 13:05\./);
  });

  it('Russian and English: a watch in the digest only is not told at once, its change is in the digest; /digest off tells it at once again', async () => {
    // Later than the tests above went: order 0007300100 is polled again from here on.
    const start = Date.parse('2026-11-25T10:00:00Z');
    const nine = Date.parse('2026-11-26T06:00:00Z');
    h.clock.now = new Date(start);
    const ru = h.api.createUser({ language_code: 'ru' });
    const en = h.api.createUser({ language_code: 'en' });
    for (const [user, label, said] of [
      [ru, 'Только в сводке', 'Теперь — только в сводке'],
      [en, 'In the digest only', 'In the digest only from now on'],
    ] as const) {
      const confirmation = await h.ask(user, '/watch 0007300100');
      await h.ask(user, '/digest 09:00');
      expect((await h.press(user, confirmation, h.button(confirmation, label))).answer?.text).toBe(said);
    }
    await runAt(start + 1_000);
    h.portal.advanceDemoClock(MINUTE);
    await runAt(start + 2_000);
    await runAt(start + 3_000);
    expect([...notifications(ru.id), ...notifications(en.id)]).toEqual([]);
    await runAt(nine);
    expect(digests(ru.id).map((message) => message.text.split('\n\n').slice(1, 3))).toEqual([
      ['Что изменилось с 25.11.2026 13:00', expect.stringMatching(/^заказы, номер SAP «0007300100»\n• Заказ № 0007300100 от 18\.11\.2025: Статус: [^\n]+ → [^\n]+$/)],
    ]);
    expect(digests(en.id).map((message) => message.text.split('\n\n').slice(1, 3))).toEqual([
      ['What changed since 25 Nov 2026, 13:00', expect.stringMatching(/^orders, SAP no\. “0007300100”\n• Order No\. 0007300100 dated 18 Nov 2025: Status: [^\n]+ → [^\n]+$/)],
    ]);
    // Without a digest, the watch speaks at once again.
    expect((await latest(en, '/digest off')).text).toBe('The digest is off. 1 watch that was in the digest only is told instantly again.');
    h.portal.advanceDemoClock(MINUTE);
    await runAt(nine + 2_000);
    await runAt(nine + 3_000);
    expect(notifications(en.id).map((message) => message.text.split('\n')[0])).toEqual(['🔔 Changes: orders, SAP no. “0007300100”']);
    expect(notifications(ru.id)).toEqual([]);
  });

  it('Russian and English: a digest longer than one message is split within Telegram’s limit, each part numbered, nothing left out', async () => {
    const ru = await subscriber('ru', ['/watch spec ДЛИННЫЙ-8', '/digest 09:00']);
    const en = await subscriber('en', ['/watch spec ДЛИННЫЙ-8', '/digest 09:00']);
    await runAt(HARNESS_START.getTime() + 1_000);
    // A chat gets one message a second: the parts go one by one.
    for (let second = 0; second < 15; second += 1) await runAt(Date.parse('2026-11-24T06:00:00Z') + second * 1_000);
    for (const [user, title, item] of [
      [ru, '🗓 Сводка на 24.11.2026', 'поз. '],
      [en, '🗓 Digest for 24 Nov 2026', 'pos. '],
    ] as const) {
      const parts = digests(user.id);
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.map((message) => message.text.split('\n')[0])).toEqual(parts.map((_, index) => `${title} (${index + 1}/${parts.length})`));
      // Every message within 4096 characters (the emulator refuses longer ones), every position told once.
      expect(Math.max(...parts.map((message) => message.text.length))).toBeLessThanOrEqual(4096);
      const told = parts.flatMap((message) => message.text.split('\n')).filter((line) => line.startsWith('• ') && line.includes(item));
      expect(told).toHaveLength(LONG_POSITIONS);
      expect(new Set(told).size).toBe(LONG_POSITIONS);
    }
  });
});
