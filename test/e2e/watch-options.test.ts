import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/telegram/telegraf/core.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import type { BotMessage } from '../support/bot-api/index.ts';
import { demoTick } from '../../src/demo/motion.ts';

// Watches that don't nag (issue 33), end to end: each reader's language at send time, positions
// named by their material, status-only watches, snoozes, the options on the confirmation, in the
// /watch list and on each notification. The demo portal moves order 0007300100's status every
// minute (but every third) and revises order 0007300151's first position (Труба 530х8) every
// third minute; the bot's clock and the demo's are moved by the test.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1' } });
});
afterAll(() => h.close());

/** A watch interval passes, twice over: what is due is polled, what is pending is sent. */
const poll = async () => {
  for (let round = 0; round < 2; round += 1) {
    h.advance(1_000);
    await h.watches().runOnce();
  }
};
const notifications = (chatId: number) => h.api.messagesIn(chatId).filter((message) => /^🔔 (Изменения|Changes|Пока слежение|While snoozed)/.test(message.text));
/** The demo moves `minutes` on, and the bot polls until every chat was told. */
const demoMoves = async (minutes: number) => {
  h.portal.advanceDemoClock(minutes * MINUTE);
  await poll();
};
const labels = (message: BotMessage | undefined) => message?.buttons.map((button) => button.text) ?? [];
/** The bot's answer to a command, past the notifications it sent the chat before. */
const ask = (user: User, text: string): Promise<BotMessage> => {
  const after = Math.max(0, ...h.api.messagesIn(user.id).map((message) => message.message_id));
  const reply = h.api.nextBotMessage(user.id, { after });
  h.api.sendText({ from: user, text });
  return reply;
};

/** A user who watches `query` in their private chat; the confirmation. */
const watching = async (languageCode: 'ru' | 'en', query: string): Promise<{ user: User; confirmation: BotMessage }> => {
  const user = h.api.createUser({ language_code: languageCode });
  const confirmation = await ask(user, `/watch ${query}`);
  await poll();
  return { user, confirmation };
};

describe("each reader's language, and positions named by their material", () => {
  it('a private chat hears in the language its user chose after the watch was made, both ways', async () => {
    const { user: wasEnglish } = await watching('en', '0007300100');
    const { user: wasRussian } = await watching('ru', '0007300100');
    const toRussian = await h.ask(wasEnglish, '/lang');
    await h.press(wasEnglish, toRussian, h.button(toRussian, 'Русский'));
    const toEnglish = await h.ask(wasRussian, '/lang');
    await h.press(wasRussian, toEnglish, h.button(toEnglish, 'English'));
    await demoMoves(1);
    expect(notifications(wasEnglish.id).map((message) => message.text.split('\n')[0])).toEqual(['🔔 Изменения: заказы, номер SAP «0007300100»']);
    expect(notifications(wasEnglish.id)[0]?.text).toContain('Статус: ');
    expect(notifications(wasRussian.id).map((message) => message.text.split('\n')[0])).toEqual(['🔔 Changes: orders, SAP no. “0007300100”']);
  });

  it("a group hears in its own language, else in the language its watch's maker chose since", async () => {
    const maker = h.api.createUser({ language_code: 'ru' });
    const admin = h.api.createUser({ language_code: 'en' });
    const withLanguage = h.api.createGroup({ type: 'supergroup' });
    const without = h.api.createGroup({ type: 'supergroup' });
    await h.ask(maker, '/watch@order_lookup_bot 0007300100', withLanguage);
    await h.ask(maker, '/watch@order_lookup_bot 0007300100', without);
    h.api.sendText({ from: admin, chat: withLanguage, text: 'hi' });
    h.api.setMemberStatus(withLanguage.id, admin.id, 'administrator');
    const choice = await h.ask(admin, '/lang@order_lookup_bot', withLanguage);
    await h.press(admin, choice, h.button(choice, 'English'));
    const own = await h.ask(maker, '/lang');
    await h.press(maker, own, h.button(own, 'English'));
    await poll();
    await demoMoves(1);
    expect(notifications(withLanguage.id).map((message) => message.text.split('\n')[0])).toEqual(['🔔 Changes: orders, SAP no. “0007300100”']);
    expect(notifications(without.id).map((message) => message.text.split('\n')[0])).toEqual(['🔔 Changes: orders, SAP no. “0007300100”']);
  });

  it('a revised position is named by number and material, in Russian and English', async () => {
    // The amounts are revised on every third tick of the demo clock: the next one comes within three.
    const ticks = 3 - (demoTick(h.portal.demoTime) % 3);
    const { user: ru } = await watching('ru', '0007300151');
    const { user: en } = await watching('en', '0007300151');
    await demoMoves(ticks);
    expect(notifications(ru.id)[0]?.text).toMatch(/\nКоличество, поз\. 000010, Труба 530х8 К52 ГОСТ 20295-85: [\d ,]+ → [\d ,]+\n/);
    expect(notifications(en.id)[0]?.text).toMatch(/\nQuantity, pos\. 000010, Труба 530х8 К52 ГОСТ 20295-85: [\d,.]+ → [\d,.]+\n/);
  });
});

describe('status only, from the confirmation, the list and a notification', () => {
  it('Russian: a status-only watch is not told of amounts, and is told of a status; chosen on the confirmation', async () => {
    const { user, confirmation } = await watching('ru', '0007300151');
    expect(labels(confirmation)).toEqual(['✓ Все изменения', 'Только статус', '✓ Сразу', 'Только в сводке']);
    const { answer, message } = await h.press(user, confirmation, h.button(confirmation, 'Только статус'));
    expect(answer?.text).toBe('Теперь — только смена статуса');
    expect(labels(message)).toEqual(['Все изменения', '✓ Только статус', '✓ Сразу', 'Только в сводке']);
    await ask(user, '/watch 0007300100');
    const list = await ask(user, '/watch');
    expect(list.text).toContain('только статус');
    // Minute by minute: over three the status comes round to where it was.
    for (let minute = 0; minute < 3; minute += 1) await demoMoves(1);
    // 0007300151's amounts changed (not told); 0007300100's status changed (told: that watch tells all).
    expect(new Set(notifications(user.id).map((message) => message.text.split('\n')[0]))).toEqual(new Set(['🔔 Изменения: заказы, номер SAP «0007300100»']));
  });

  it('English: switched from a notification and from the watch’s settings in /watch; "in the digest only" needs a digest', async () => {
    const { user } = await watching('en', '0007300100');
    await demoMoves(1);
    const [told] = notifications(user.id);
    expect(labels(told)).toEqual(['Order 0007300100', '⏸ 1 day', '⏸ 1 week', 'Status only', 'In the digest only', '🔕 Stop watching']);
    const switched = await h.press(user, told!, h.button(told, 'Status only'));
    expect(switched.answer?.text).toBe('Status changes only from now on');
    expect(labels(switched.message)).toContain('All changes');
    const noDigest = await h.press(user, told!, h.button(switched.message, 'In the digest only'));
    expect(noDigest.answer).toMatchObject({ show_alert: true, text: 'This chat has no digest: set one first, e.g. /digest 09:00.' });

    const list = await ask(user, '/watch');
    expect(list.text).toContain('status only');
    const { message: settings } = await h.press(user, list, h.button(list, '⚙ 1'));
    expect(settings?.text).toBe(['⚙ Watch 1: orders, SAP no. “0007300100”', 'Told: status changes only, and records that enter or leave', 'When: instantly'].join('\n'));
    expect(labels(settings)).toEqual(['All changes', '✓ Status only', '✓ Instantly', 'In the digest only', '⏸ 1 day', '⏸ 1 week', '🔕 Stop watching', '◀ Back to the list']);
    const { message: all } = await h.press(user, settings!, h.button(settings, 'All changes'));
    expect(all?.text).toContain('Told: all changes');
    const { message: back } = await h.press(user, all!, h.button(all, '◀ Back to the list'));
    expect(back?.text).toMatch(/^Watches 1–1 of 1/);
    expect(back?.text).not.toContain('status only');
  });
});

describe('snooze', () => {
  it('Russian: ⏸ 1 day on a notification; nothing meanwhile; on waking one message, one line per record', async () => {
    const { user } = await watching('ru', '0007300100');
    await demoMoves(1);
    const [told] = notifications(user.id);
    const { answer, message } = await h.press(user, told!, h.button(told, '⏸ 1 день'));
    expect(answer?.text).toBe('⏸ На паузе до 24.11.2026 14:05');
    expect(labels(message)).toContain('▶ Возобновить');
    expect(labels(message)).not.toContain('⏸ 1 неделя');
    // Two moves: the status is not back where it was when the watch wakes.
    await demoMoves(1);
    await demoMoves(1);
    expect(notifications(user.id)).toHaveLength(1);
    h.advance(DAY);
    await poll();
    const woken = notifications(user.id).slice(1);
    expect(woken).toHaveLength(1);
    expect(woken[0]?.text).toMatch(/^🔔 Пока слежение было на паузе \(с 23\.11\.2026 14:05\): заказы, номер SAP «0007300100»\nобновлено \d{2}:\d{2}\n\nЗаказ № 0007300100 от 18\.11\.2025: Статус: [^\n]+ → [^\n]+$/);
    expect(woken[0]?.text.split('\n\n')).toHaveLength(2);
    // Stopped from the list, the watch's buttons left on the notification are answered so.
    const list = await ask(user, '/watch');
    await h.press(user, list, h.button(list, '🔕 1'));
    const gone = await h.press(user, message!, h.button(message, '▶ Возобновить'));
    expect(gone.answer).toMatchObject({ show_alert: true, text: 'Этого слежения больше нет: см. /watch.' });
  });

  it('English: ⏸ 1 week and ▶ from the watch’s settings; a snooze button of a watch already gone is answered so', async () => {
    const { user } = await watching('en', '0007300100');
    const list = await ask(user, '/watch');
    const { message: settings } = await h.press(user, list, h.button(list, '⚙ 1'));
    const snoozed = await h.press(user, settings!, h.button(settings, '⏸ 1 week'));
    expect(snoozed.answer?.text).toMatch(/^⏸ Snoozed until \d+ (Nov|Dec) 2026, \d\d:\d\d$/);
    expect(snoozed.message?.text).toMatch(/\n⏸ snoozed until \d+ (Nov|Dec) 2026, \d\d:\d\d$/);
    await demoMoves(1);
    expect(notifications(user.id)).toEqual([]);
    const resumed = await h.press(user, snoozed.message!, h.button(snoozed.message, '▶ Resume'));
    expect(resumed.answer?.text).toBe('▶ Resumed');
    await poll();
    expect(notifications(user.id).map((message) => message.text.split('\n')[0])).toEqual([expect.stringMatching(/^🔔 While snoozed \(since \d\d:\d\d\): orders, SAP no\. “0007300100”$/)]);
    const stop = await h.press(user, resumed.message!, h.button(resumed.message, '🔕 Stop watching'));
    expect(stop.message?.text).toMatch(/^Nothing is watched in this chat yet/);
    // The notification still shows the watch's buttons: each is answered so, and changes nothing.
    const [woken] = notifications(user.id);
    for (const label of ['⏸ 1 day', '⏸ 1 week', 'Status only', 'In the digest only']) {
      const gone = await h.press(user, woken!, h.button(woken, label));
      expect(gone.answer).toMatchObject({ show_alert: true, text: 'This watch is no longer there: see /watch.' });
    }
    expect((await ask(user, '/watch')).text).toMatch(/^Nothing is watched in this chat yet/);
  });
});
