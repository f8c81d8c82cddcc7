import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@grammyjs/types';
import type { BotMessage, EmulatedChat } from '../support/bot-api/index.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Issue 30 in groups: the bot sees commands, mentions and replies (privacy mode); a group's
// admin may have it read every message for identifiers with /autolookup on.

const runs: Harness[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
});
const start = async (env: Record<string, string> = {}) => {
  const h = await startHarness({ env });
  runs.push(h);
  return h;
};

const labels = (message: BotMessage | undefined) => message?.buttons.map((button) => button.text) ?? [];
const auditOf = (h: Harness, from: number) => h.logs.slice(from).filter((line) => line.audit === true);

/** A group with its creator (an admin) and a member. */
const groupOf = (h: Harness, language: 'ru' | 'en') => {
  const admin = h.api.createUser({ language_code: language });
  const member = h.api.createUser({ language_code: language });
  const group = h.api.createGroup({ type: 'supergroup', title: language === 'ru' ? 'Отдел продаж' : 'Sales' });
  h.api.setMemberStatus(group, admin, 'creator');
  h.api.setMemberStatus(group, member, 'member');
  return { admin, member, group };
};

/** Writes in the group and waits until the bot is done with it; the bot's messages since. */
const chatter = async (h: Harness, from: User, group: EmulatedChat, text: string): Promise<BotMessage[]> => {
  const before = h.api.messagesIn(group.id).length;
  h.api.sendText({ from, chat: group, text });
  await h.settle();
  return h.api.messagesIn(group.id).slice(before);
};

describe('mentions and replies in a group (privacy mode on)', () => {
  it('reads "@bot 0007300100 ДП-77/2026" as pasted numbers, audited as a mention (ru)', async () => {
    const h = await start();
    const { member, group } = groupOf(h, 'ru');
    const logged = h.logs.length;
    const reply = await h.ask(member, '@order_lookup_bot 0007300100 ДП-77/2026', group);
    expect(reply.text).toMatch(/^По номерам из сообщения\n\n1\. Заказ № 0007300100 от 18\.11\.2025\n/);
    expect(reply.text).toContain('… и ещё 5 записей: кнопка 📋 ДП-77/2026 · 8');
    expect(reply.reply_to_message_id).toBeDefined();
    expect(auditOf(h, logged).map((line) => line.via)).toEqual(['mention', 'mention']);
  });

  it('reads a reply to its message as pasted, and says what can be pasted when a mention names nothing (en)', async () => {
    const h = await start();
    const { member, group } = groupOf(h, 'en');
    const first = await h.ask(member, '/order@order_lookup_bot 0007300100', group);
    const logged = h.logs.length;
    const reply = h.api.nextBotMessage(group.id);
    h.api.sendText({ from: member, chat: group, text: 'and 7300321?', replyTo: { message_id: first.message_id, chat_id: group.id } });
    expect((await reply).text).toMatch(/^Order No\. 0007300321 dated 15 Mar 2026/);
    expect(auditOf(h, logged).map((line) => line.via)).toEqual(['pasted']);
    expect((await h.ask(member, '@order_lookup_bot hello', group)).text).toContain("I don't understand that message");
    // Privacy mode: the rest of the conversation never reaches the bot.
    expect(await chatter(h, member, group, 'where is 0007300100?')).toEqual([]);
  });
});

describe('/autolookup', () => {
  it('is turned on by an admin, who is told it works only once privacy mode is off, and how (ru)', async () => {
    const h = await start();
    const { admin, member, group } = groupOf(h, 'ru');
    expect((await h.ask(member, '/autolookup on', group)).text).toBe('Включать и выключать автопоиск могут только администраторы группы.');
    const on = await h.ask(admin, '/autolookup on', group);
    expect(on.text).toMatch(/^🔎 Автопоиск включён: /);
    expect(on.text).toContain('Group Privacy → Turn off');
    expect(h.api.callsTo('getChatMember', { chatId: group.id }).length).toBe(2);
    // Asked again within a minute: Telegram's answer is remembered.
    expect((await h.ask(admin, '/autolookup', group)).text).toContain('Сейчас автопоиск включён.');
    expect(h.api.callsTo('getChatMember', { chatId: group.id }).length).toBe(2);
    // With privacy mode on, chatter never reaches the bot.
    expect(await chatter(h, member, group, 'заказ 0007300100 готов?')).toEqual([]);
    h.api.setPrivacyMode(false);
    const lines = await chatter(h, member, group, 'заказ 0007300100 готов?');
    expect(lines.map((message) => message.text)).toEqual(['1. Заказ № 0007300100 · 18.11.2025 · Производство · 9\u00a0624\u00a0307,00 RUB']);
  });

  it('says nothing of privacy mode when the bot reads every message already (en)', async () => {
    const h = await start();
    h.api.setPrivacyMode(false);
    const { admin, group } = groupOf(h, 'en');
    const on = await h.ask(admin, '/autolookup on', group);
    expect(on.text).toBe(
      '🔎 Autolookup is on: I read the group’s messages and answer SAP order numbers (10 digits), CRM numbers, contract numbers and material codes — a line per record found; when nothing is found I stay silent.',
    );
    expect((await h.ask(admin, '/autolookup off', group)).text).toBe('Autolookup is off: in the group I answer only commands, mentions and replies to my messages.');
    expect(await chatter(h, admin, group, 'is 0007300100 ready?')).toEqual([]);
  });

  it('answers chatter with a compact line per record found and a button to open it; silent when nothing is found (ru and en)', async () => {
    const h = await start();
    h.api.setPrivacyMode(false);
    const ru = groupOf(h, 'ru');
    await h.ask(ru.admin, '/autolookup on', ru.group);
    const logged = h.logs.length;
    const [answer, ...more] = await chatter(h, ru.member, ru.group, 'Коллеги, по 0007300321 и ДП-9/2026 есть новости? И что с CRM-2026-004512?');
    expect(more).toEqual([]);
    expect(answer?.text.replaceAll('\u00a0', ' ')).toBe(
      [
        '1. Заказ № 0007300321 · 15.03.2026 · Производство · 502 783 744,56 RUB',
        '2. Спецификация № 3, договор ДП-9/2026 · статус 40, ZSDZMP',
        '3. Спецификация № 2, договор ДП-9/2026 · статус 70, ZSDZNM',
        '4. Спецификация № 1, договор ДП-9/2026 · статус 20, ZSD_DOG',
        '5. Заказ № 0007300202 · 10.02.2026 · Производство · 8 636 635,50 RUB',
      ].join('\n'),
    );
    expect(labels(answer)).toEqual(['1', '2', '3', '4', '5']);
    expect(auditOf(h, logged).map((line) => [line.via, line.limit])).toEqual([
      ['autolookup', 5],
      ['autolookup', 5],
      ['autolookup', 5],
    ]);
    // A number opens the record as a new message, replying nowhere: the compact answer stays.
    const opened = h.api.nextBotMessage(ru.group.id, { after: answer!.message_id });
    await h.press(ru.member, answer!, h.button(answer, '3'));
    expect((await opened).text).toMatch(/^Спецификация № 2\n/);
    // Chatter that names nothing, short numbers and dates included, gets nothing and asks nothing.
    const before = h.portal.requests.length;
    expect(await chatter(h, ru.member, ru.group, 'созвон в 15:30, счёт 1234567 от 15.03.2026, ИНН 7701234567')).toEqual([]);
    expect(h.portal.requests.length).toBe(before);
    expect(await chatter(h, ru.member, ru.group, 'а 0007399999?')).toEqual([]);

    const en = groupOf(h, 'en');
    await h.ask(en.admin, '/autolookup on', en.group);
    const [english] = await chatter(h, en.member, en.group, 'any news on 000000000010013020?');
    expect(english?.text).toBe('Material code 10013020: orders — 5, specifications — 3.');
    expect(labels(english)).toEqual(['📦 Orders · 5', '📄 Specifications · 3']);
  });

  it('never asks the portal twice for the same number within the cache time, and answers each message once', async () => {
    const h = await start({ PORTAL_CACHE_SECONDS: '60' });
    h.api.setPrivacyMode(false);
    const { admin, member, group } = groupOf(h, 'ru');
    await h.ask(admin, '/autolookup on', group);
    const before = h.portal.requests.length;
    const first = await chatter(h, member, group, '0007300100');
    const second = await chatter(h, admin, group, 'да, 0007300100 и ещё раз 0007300100');
    // A mention in an autolookup group is one answer, not two.
    const third = await chatter(h, member, group, '@order_lookup_bot 0007300100');
    expect([first.length, second.length, third.length]).toEqual([1, 1, 1]);
    expect(second[0]?.text).toBe(first[0]?.text);
    expect(h.portal.requests.slice(before)).toEqual(['/api/lk/order?SAP_ID=0007300100&limit=5&offset=0']);
    h.advance(60_000);
    await chatter(h, member, group, '0007300100');
    expect(h.portal.requests.length - before).toBe(2);
  });

  it('is switched in /settings too, by an admin only (en)', async () => {
    const h = await start();
    const { admin, member, group } = groupOf(h, 'en');
    const settings = await h.ask(member, '/settings', group);
    expect(settings.text).toContain('Autolookup of numbers in this group: off.');
    const refused = await h.press(member, settings, h.button(settings, '🔎 Turn autolookup on'));
    expect(refused.answer).toMatchObject({ text: 'Only the group’s admins can turn autolookup on or off.', show_alert: true });
    const pressed = await h.press(admin, settings, h.button(settings, '🔎 Turn autolookup on'));
    expect(pressed.answer).toMatchObject({ text: 'on' });
    expect(pressed.message?.text).toMatch(/^🔎 Autolookup is on/);
    expect((await h.ask(member, '/settings', group)).text).toContain('Autolookup of numbers in this group: on.');
    const ru = h.api.createUser({ language_code: 'ru' });
    expect((await h.ask(ru, '/settings')).buttons.filter((button) => button.text.startsWith('🔎'))).toEqual([]);
  });

  it('works only in groups on the bot’s list, and strangers’ chatter is never answered', async () => {
    const h = await start({ ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: '4242' });
    h.api.setPrivacyMode(false);
    const admin = h.api.createUser({ id: 4242, language_code: 'ru' });
    const stranger = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    h.api.setMemberStatus(group, admin, 'creator');
    expect((await h.ask(admin, '/autolookup on', group)).text).toBe(
      `Автопоиск работает только в группах из списка бота. Чтобы его открыть, отправьте администратору ID чата ${group.id}.`,
    );
    expect(await chatter(h, admin, group, 'где 0007300100?')).toEqual([]);
    expect(await chatter(h, stranger, group, 'where is 0007300100?')).toEqual([]);
    // A private chat reads every message anyway.
    expect((await h.ask(admin, '/autolookup on')).text).toBe('Автопоиск — для групп: в личном чате я и так читаю каждое сообщение, присылайте номера.');
  });
});
