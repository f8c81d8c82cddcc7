import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/telegram/telegraf/core.ts';
import { HARNESS_START, startHarness, type Harness } from '../support/harness.ts';
import type { BotMessage } from '../support/bot-api/index.ts';

// Each chat's time zone (issue 33), end to end: "updated 14:05" in it, QUIET_HOURS read in it, a
// digest at its time there (with its sound, quiet hours or not); who may set a group's; every bad
// input answered; a digest chat that blocked the bot paused as its notifications are. The clock
// starts at 14:05 in Moscow (16:05 in Yekaterinburg), inside QUIET_HOURS 14-15.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1', QUIET_HOURS: '14-15' } });
});
afterAll(() => h.close());

/** The bot's answer to a text, past what it sent the chat before. */
const ask = (user: User, text: string, chat?: Parameters<Harness['ask']>[2]): Promise<BotMessage> => {
  const chatId = chat?.id ?? user.id;
  const after = Math.max(0, ...h.api.messagesIn(chatId).map((message) => message.message_id));
  const reply = h.api.nextBotMessage(chatId, { after });
  h.api.sendText({ from: user, text, ...(chat && { chat }) });
  return reply;
};
const runAt = async (at: number) => {
  h.clock.now = new Date(at);
  await h.watches().runOnce();
  await h.watches().runOnce();
};
/** The sendMessage calls to the chat whose text (tags left out) starts so. */
const sent = (chatId: number, start: string) => h.api.callsTo('sendMessage', { chatId }).filter((call) => String(call.params.text).replace(/<[^>]*>/g, '').startsWith(start));

describe("a chat's time zone", () => {
  it('"updated 14:05" reads in it, in Russian and English', async () => {
    h.clock.now = HARNESS_START;
    const ru = h.api.createUser({ language_code: 'ru' });
    const en = h.api.createUser({ language_code: 'en' });
    expect((await ask(ru, '/order 0007300100')).text).toMatch(/^обновлено 14:05$/m);
    await ask(ru, '/timezone asia/yekaterinburg');
    expect((await ask(ru, '/order 0007300100')).text).toMatch(/^обновлено 16:05$/m);
    expect((await ask(en, '/timezone Asia/Kamchatka')).text).toBe('🕒 Time zone: Asia/Kamchatka, now 23:05. Times in messages, the digest and quiet hours follow it.');
    expect((await ask(en, '/order 0007300100')).text).toMatch(/^updated 23:05$/m);
  });

  it('QUIET_HOURS are read in each chat’s zone; a digest asked for in them keeps its sound', async () => {
    h.clock.now = HARNESS_START;
    const moscow = h.api.createUser({ language_code: 'ru' });
    const yekaterinburg = h.api.createUser({ language_code: 'en' });
    await ask(yekaterinburg, '/timezone Asia/Yekaterinburg');
    for (const user of [moscow, yekaterinburg]) await ask(user, '/watch 0007300100');
    await ask(moscow, '/digest 14:30');
    await runAt(HARNESS_START.getTime() + 1_000);
    h.portal.advanceDemoClock(MINUTE);
    await runAt(HARNESS_START.getTime() + 2_000);
    await runAt(HARNESS_START.getTime() + 3_000);
    // 14:05 in Moscow is within 14-15; 16:05 in Yekaterinburg is not.
    expect(sent(moscow.id, '🔔 Изменения').map((call) => call.params.disable_notification)).toEqual([true]);
    expect(sent(yekaterinburg.id, '🔔 Changes').map((call) => call.params.disable_notification)).toEqual([undefined]);
    await runAt(Date.parse('2026-11-23T11:30:00Z'));
    expect(sent(moscow.id, '🗓 Сводка на 23.11.2026').map((call) => call.params.disable_notification)).toEqual([undefined]);
  });

  it("a group's zone and digest are its admins' to set; a group whose members the bot may not read is told so", async () => {
    h.clock.now = HARNESS_START;
    const admin = h.api.createUser({ language_code: 'ru' });
    const member = h.api.createUser({ language_code: 'ru' });
    const group = h.api.createGroup({ type: 'supergroup' });
    h.api.sendText({ from: admin, chat: group, text: 'привет' });
    h.api.setMemberStatus(group.id, admin.id, 'administrator');
    await ask(member, '/watch@order_lookup_bot 0007300100', group);
    expect((await ask(member, '/timezone@order_lookup_bot Asia/Omsk', group)).text).toBe('Часовой пояс группы могут менять только её администраторы.');
    expect((await ask(member, '/digest@order_lookup_bot 09:00', group)).text).toBe('Сводку группы могут настраивать только её администраторы.');
    const choice = await ask(member, '/timezone@order_lookup_bot', group);
    const pressed = await h.press(member, choice, h.button(choice, 'Омск, UTC+6'));
    expect(pressed.answer).toMatchObject({ show_alert: true, text: 'Часовой пояс группы могут менять только её администраторы.' });
    expect((await ask(admin, '/timezone@order_lookup_bot Asia/Omsk', group)).text).toMatch(/^🕒 Часовой пояс: Asia\/Omsk, сейчас 17:05\./);
    expect((await ask(admin, '/digest@order_lookup_bot 09:00', group)).text).toMatch(/^🗓 Сводка — каждый день в 09:00 \(Asia\/Omsk\)/);
    // Anyone may look.
    expect((await ask(member, '/digest@order_lookup_bot', group)).text).toMatch(/^🗓 Сводка: каждый день в 09:00 \(Asia\/Omsk\), следующая — 24\.11\.2026 09:00\./);

    const english = h.api.createUser({ language_code: 'en' });
    const hidden = h.api.createGroup({ type: 'supergroup' });
    h.api.sendText({ from: english, chat: hidden, text: 'hi' });
    h.api.setMemberStatus(hidden.id, english.id, 'administrator');
    h.api.hideMembers(hidden);
    const cannot = 'I cannot check whether you are an admin of this group: Telegram does not let the bot read its members. Make the bot an admin of the group (or ask an admin) and try again.';
    expect((await ask(english, '/timezone@order_lookup_bot Asia/Omsk', hidden)).text).toBe(cannot);
    expect((await ask(english, '/digest@order_lookup_bot 09:00', hidden)).text).toBe(cannot);
    const zones = await ask(english, '/timezone@order_lookup_bot', hidden);
    expect((await h.press(english, zones, h.button(zones, 'Omsk, UTC+6'))).answer).toMatchObject({ show_alert: true, text: cannot });
    // Made an admin, the bot may ask: the admin's word goes.
    h.api.setMemberStatus(hidden.id, h.api.botUser.id, 'administrator');
    expect((await ask(english, '/timezone@order_lookup_bot Asia/Omsk', hidden)).text).toMatch(/^🕒 Time zone: Asia\/Omsk/);
  });
});

describe('bad input, each answered', () => {
  it('Russian: /timezone Mars/Base, /digest 25:00, /digest 9, /digest 09:00 громко', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const mars = await ask(user, '/timezone Mars/Base');
    expect(mars.text).toBe(
      'Не знаю часового пояса «Mars/Base». Пришлите название IANA, например /timezone Europe/Moscow, /timezone Asia/Yekaterinburg или /timezone Asia/Novosibirsk, или выберите ниже.',
    );
    expect(mars.buttons).toHaveLength(12);
    const usage = '\n\nПришлите время ежедневной сводки, например /digest 09:00 (по часовому поясу чата: Europe/Moscow).';
    expect((await ask(user, '/digest 25:00')).text).toMatch(new RegExp(`^«25:00» — не время суток\\. Пришлите его как ЧЧ:ММ, от 00:00 до 23:59, например /digest 09:00\\.${usage.replace(/[.()/]/g, '\\$&')}`));
    expect((await ask(user, '/digest 9')).text).toMatch(/^«9» — не время суток\./);
    expect((await ask(user, '/digest 09:00 громко')).text).toMatch(/^После времени можно написать только quiet, а не «громко»/);
    expect((await ask(user, '/digest')).text).toMatch(/^🗓 Сводки нет\.\n\nПришлите время ежедневной сводки/);
  });

  it('English: the same, and a digest in a group not on the list is refused like a watch', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    expect((await ask(user, '/timezone Mars/Base')).text).toMatch(/^I do not know the time zone «Mars\/Base»\. Send an IANA name, e\.g\. \/timezone Europe\/Moscow/);
    expect((await ask(user, '/timezone +05:00')).text).toMatch(/^I do not know the time zone «\+05:00»/);
    expect((await ask(user, '/digest 25:00')).text).toMatch(/^«25:00» is not a time of day\. Send it as HH:MM, from 00:00 to 23:59, e\.g\. \/digest 09:00\./);
    expect((await ask(user, '/digest 9')).text).toMatch(/^«9» is not a time of day\./);
    expect((await ask(user, '/digest 09:00 loud')).text).toMatch(/^After the time only quiet may come, not «loud»/);
  });
});

describe('a digest chat that blocked the bot', () => {
  it('is paused as its notifications are, not written to again, and resumed (and told what it missed) once it writes', async () => {
    h.clock.now = HARNESS_START;
    const user = h.api.createUser({ language_code: 'en' });
    await ask(user, '/watch 0007300100');
    await ask(user, '/digest 18:00');
    h.api.blockBot(user.id);
    const due = Date.parse('2026-11-23T15:00:00Z');
    await runAt(due);
    expect(h.logs).toContainEqual(expect.objectContaining({ chatId: user.id, msg: 'chat unreachable: its watches are paused until it writes again' }));
    const attempts = () => h.api.callsTo('sendMessage', { chatId: user.id }).length;
    const afterBlock = attempts();
    await runAt(due + 24 * HOUR);
    await runAt(due + 24 * HOUR + MINUTE);
    expect(attempts()).toBe(afterBlock);
    h.api.blockBot(user.id, false);
    await ask(user, '/help');
    // The next due digest is more than 6 hours late by then: skipped, and said in the one after.
    await runAt(due + 48 * HOUR);
    await runAt(due + 72 * HOUR);
    const digests = h.api.messagesIn(user.id).filter((message) => message.text.startsWith('🗓 Digest for'));
    expect(digests.map((message) => message.text)).toEqual([
      '🗓 Digest for 26 Nov 2026: 1 record watched, none changed.\n⚠ The digest for 24 Nov 2026 was not sent in time; its changes are in this one.',
    ]);
  });
});
