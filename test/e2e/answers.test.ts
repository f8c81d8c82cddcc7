import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@grammyjs/types';
import type { BotApiVersion, BotMessage, EmulatedChat } from '../support/bot-api/index.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Issue 32, points 1–4: a group's answer mode (/answers), private answers in ephemeral messages
// (Bot API 10.3), another user's own view of a public answer, and where an answer goes when no
// ephemeral message can: the private chat, or one note in the group that names no record.

const runs: Harness[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
});
const start = async (botApiVersion?: BotApiVersion) => {
  const h = await startHarness(botApiVersion === undefined ? {} : { botApiVersion });
  runs.push(h);
  return h;
};

/** A supergroup with its creator (an admin) and two members, all speaking `language`. */
const groupOf = (h: Harness, language: 'ru' | 'en') => {
  const admin = h.api.createUser({ language_code: language });
  const ann = h.api.createUser({ language_code: language, first_name: 'Ann' });
  const bob = h.api.createUser({ language_code: language, first_name: 'Bob' });
  const group = h.api.createGroup({ type: 'supergroup', title: language === 'ru' ? 'Отдел продаж' : 'Sales' });
  h.api.setMemberStatus(group, admin, 'creator');
  h.api.setMemberStatus(group, ann, 'member');
  h.api.setMemberStatus(group, bob, 'member');
  return { admin, ann, bob, group };
};

/** Writes in a chat and waits until the bot is done with it. */
const say = async (h: Harness, from: User, chat: EmulatedChat, text: string) => {
  h.api.sendText({ from, chat, text });
  await h.settle();
};

/** The group made private by its admin; the bot's answer. */
const makePrivate = async (h: Harness, admin: User, group: EmulatedChat, word = 'private') => h.ask(admin, `/answers ${word}`, group);

/** Calls Telegram refused, but for the one probe of the server's ephemeral methods (id 0 is no message: a 400 where they exist). */
const failed = (h: Harness) => h.api.failedCalls().filter((call) => !(call.method === 'deleteEphemeralMessage' && call.params.ephemeral_message_id === 0));

const labels = (message: BotMessage | undefined) => message?.buttons.map((button) => button.text) ?? [];
const header = (message: BotMessage | undefined) => message?.text.split('\n')[0];

describe('/answers', () => {
  it('is an admin’s: a member is refused; лично / всем switch it, the menu of the group changes only then (ru)', async () => {
    const h = await start();
    const { admin, ann, group } = groupOf(h, 'ru');
    expect((await h.ask(ann, '/answers лично', group)).text).toBe('Менять, как бот отвечает на запросы, могут только администраторы группы.');
    expect((await h.ask(ann, '/answers', group)).text).toContain('Сейчас ответы для всех.');
    expect((await makePrivate(h, admin, group, 'лично')).text).toMatch(/^🔒 Теперь ответы в этой группе личные/);
    const menu = h.api.commands({ scope: { type: 'chat', chat_id: group.id }, languageCode: 'ru' });
    expect(menu?.filter((command) => (command as { is_ephemeral?: boolean }).is_ephemeral).map((command) => command.command)).toEqual(['order', 'spec', 'export']);
    expect(menu?.map((command) => command.command)).toContain('answers');
    const sets = h.api.callsTo('setMyCommands').length;
    // Said again: no change, no calls; a restart sets nothing for the group either.
    await makePrivate(h, admin, group, 'лично');
    await h.restart();
    expect(h.api.callsTo('setMyCommands').filter((call) => JSON.stringify(call.params.scope).includes(String(group.id)))).toHaveLength(3);
    expect(h.api.callsTo('setMyCommands').length - sets).toBe(6); // the restart's global menus only
    expect((await h.ask(ann, '/answers', group)).text).toContain('Сейчас ответы личные.');
    expect((await h.ask(admin, '/answers всем', group)).text).toMatch(/^Теперь ответы в этой группе видят все/);
    expect(h.api.commands({ scope: { type: 'chat', chat_id: group.id }, languageCode: 'ru' })).toBeUndefined();
    expect(failed(h)).toEqual([]);
  });

  it('is in /settings, switched by an admin’s press and refused to a member’s (en)', async () => {
    const h = await start();
    const { admin, ann, group } = groupOf(h, 'en');
    const settings = await h.ask(admin, '/settings', group);
    expect(settings.text).toContain('Answers in this group: for everyone.');
    const { answer } = await h.press(ann, settings, h.button(settings, '🔒 Answer privately'));
    expect(answer).toMatchObject({ text: 'Only the group’s admins can change how lookups are answered.', show_alert: true });
    const { message } = await h.press(admin, settings, h.button(settings, '🔒 Answer privately'));
    expect(message?.text).toMatch(/^🔒 Answers in this group are private now/);
    expect((await h.ask(admin, '/settings', group)).text).toContain('Answers in this group: private.');
  });

  it('is for groups: in a private chat it says so (en)', async () => {
    const h = await start();
    const user = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(user, '/answers private')).text).toBe('Answer modes are for groups: here every answer is yours alone anyway.');
  });
});

describe('private mode on a current server', () => {
  it('answers /order in the asker’s ephemeral message: "Ищу…" first, then the answer, pages and 📣; nothing in the group (ru)', async () => {
    const h = await start();
    const { admin, ann, bob, group } = groupOf(h, 'ru');
    await makePrivate(h, admin, group);
    const before = h.api.messagesIn(group.id).length;
    const sent = h.api.sendText({ from: ann, chat: group, text: '/order status production' });
    expect(sent.message_id).toBe(0);
    const first = await h.api.nextEphemeralMessage(group.id, ann.id);
    expect(first.text).toBe('🔎 Ищу…');
    await h.settle();
    let answer = h.api.ephemeralMessage(group.id, ann.id, first.ephemeral_message_id!);
    expect(header(answer)).toBe('Заказы 1–5 из 21');
    expect(labels(answer)).toContain('📣 Показать всем');
    // Paging edits the same ephemeral message; nobody else sees any of it.
    answer = (await h.press(ann, answer!, h.button(answer, '▶'))).message;
    expect(header(answer)).toBe('Заказы 6–10 из 21');
    expect(answer?.ephemeral_message_id).toBe(first.ephemeral_message_id);
    expect(h.api.ephemeralMessages(group.id, ann.id)).toHaveLength(1);
    expect(h.api.ephemeralMessages(group.id, bob.id)).toEqual([]);
    expect(h.api.messagesIn(group.id)).toHaveLength(before);
    // 📣 posts the view for everyone, as a public answer.
    const shown = await h.press(ann, answer!, h.button(answer, '📣 Показать всем'));
    expect(shown.answer.text).toBeUndefined();
    const posted = h.api.messagesIn(group.id).slice(before);
    expect(posted.map(header)).toEqual(['Заказы 6–10 из 21']);
    expect(h.api.ignoredFields()).toEqual([]);
    expect(failed(h)).toEqual([]);
  });

  it('answers a mention in the private chat with the bot, or, before the user started it, with one note naming no record whose button runs the lookup there (en)', async () => {
    const h = await start();
    const { admin, ann, bob, group } = groupOf(h, 'en');
    await makePrivate(h, admin, group);
    // Ann has started the bot: the answer comes to her private chat.
    await h.ask(ann, '/start');
    const before = h.api.messagesIn(group.id).length;
    const mentioned = h.api.nextBotMessage(ann.id);
    await say(h, ann, group, '@order_lookup_bot 0007300100');
    expect((await mentioned).text).toMatch(/^Order No\. 0007300100/);
    expect(h.api.messagesIn(group.id)).toHaveLength(before);
    // Bob never started it: a note in the group, with no number in it.
    const note = await h.ask(bob, '@order_lookup_bot 0007300100', group);
    expect(note.text).toBe('I answer this group’s lookups in private, and cannot write to you there yet: open the chat with me, and your lookup will run there.');
    expect(note.text).not.toContain('7300100');
    const link = note.buttons[0] && 'url' in note.buttons[0] ? note.buttons[0].url : '';
    expect(link).toMatch(/^https:\/\/t\.me\/order_lookup_bot\?start=v[\w-]+$/);
    const payload = new URL(link).searchParams.get('start');
    expect((await h.ask(bob, `/start ${payload}`)).text).toMatch(/^Order No\. 0007300100/);
    expect(h.logs.filter((line) => line.cause === 'the user has not started the bot')).toHaveLength(1);
  });
});

describe('private mode on an older server', () => {
  it('10.1: no ephemeral commands nor messages (found by a 404), answers in the private chat, nothing ignored, nothing public (en)', async () => {
    const h = await start('10.1');
    const { admin, ann, group } = groupOf(h, 'en');
    const set = await makePrivate(h, admin, group);
    expect(set.text).toContain('This Bot API server cannot send private messages in groups yet, so answers will come to the private chat with the bot.');
    expect(h.api.callsTo('deleteEphemeralMessage').map((call) => call.response)).toMatchObject([{ ok: false, error_code: 404 }]);
    await h.ask(ann, '/start');
    const before = h.api.messagesIn(group.id).length;
    const answer = h.api.nextBotMessage(ann.id);
    await say(h, ann, group, '/order 0007300100');
    expect((await answer).text).toMatch(/^Order No\. 0007300100/);
    expect(h.api.messagesIn(group.id)).toHaveLength(before);
    expect(h.api.ignoredFields()).toEqual([]);
    expect(h.logs.filter((line) => line.capability === 'ephemeralMessages')).toHaveLength(1);
  });

  it('10.2: the command comes ephemerally, but "Ищу…" with a disabled button is refused loudly, so the answer goes to the private chat (ru)', async () => {
    const h = await start('10.2');
    const { admin, ann, group } = groupOf(h, 'ru');
    await makePrivate(h, admin, group, 'лично');
    await h.ask(ann, '/start');
    const before = h.api.messagesIn(group.id).length;
    const answer = h.api.nextBotMessage(ann.id);
    expect(h.api.sendText({ from: ann, chat: group, text: '/order 0007300100' }).message_id).toBe(0);
    expect((await answer).text).toMatch(/^Заказ № 0007300100/);
    await h.settle();
    expect(h.api.messagesIn(group.id)).toHaveLength(before);
    // The only field the server ignored was in the probe it refused.
    expect(h.api.ignoredFields().map((field) => field.field).sort()).toEqual(['ephemeral_message_parameters', 'reply_markup.inline_keyboard[0][0].disabled']);
    // Known for the process now: the next lookup goes straight to the private chat.
    const next = h.api.nextBotMessage(ann.id);
    h.api.sendText({ from: ann, chat: group, text: '/order 0007300321' });
    expect((await next).text).toMatch(/^Заказ № 0007300321/);
    expect(h.api.callsTo('sendMessage').filter((call) => call.params.ephemeral_message_parameters !== undefined)).toHaveLength(1);
  });
});

describe('public mode: someone else’s press', () => {
  it('shows them their own page in place of the answer, for them alone; the asker’s press edits the answer (en)', async () => {
    const h = await start();
    const { ann, bob, group } = groupOf(h, 'en');
    const answer = await h.ask(ann, '/order status production', group);
    expect(header(answer)).toBe('Orders 1–5 of 21');
    const { message: unchanged } = await h.press(bob, answer, h.button(answer, '▶'));
    expect(header(unchanged)).toBe('Orders 1–5 of 21');
    const [own] = h.api.ephemeralMessages(group.id, bob.id);
    expect(header(own)).toBe('Orders 6–10 of 21');
    expect(own?.replaces_message_id).toBe(answer.message_id);
    // His own view pages in place, the public message stays.
    const { message: next } = await h.press(bob, own!, h.button(own, '▶'));
    expect(header(next)).toBe('Orders 11–15 of 21');
    expect(header(h.api.message(group.id, answer.message_id))).toBe('Orders 1–5 of 21');
    // The asker pages the public message, as before.
    const { message: edited } = await h.press(ann, answer, h.button(answer, '▶'));
    expect(header(edited)).toBe('Orders 6–10 of 21');
    expect(h.api.ephemeralMessages(group.id, ann.id)).toEqual([]);
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('on an older server (10.2) edits the public answer as before, with nothing posted for everyone by mistake (ru)', async () => {
    const h = await start('10.2');
    const { ann, bob, group } = groupOf(h, 'ru');
    const answer = await h.ask(ann, '/order status production', group);
    const { message } = await h.press(bob, answer, h.button(answer, '▶'));
    expect(header(message)).toBe('Заказы 6–10 из 21');
    expect(h.api.messagesIn(group.id).map(header)).toEqual(['Заказы 6–10 из 21']);
  });
});

describe('private mode: the whole answer stays in the asker’s ephemeral message', () => {
  /** Ann's ephemeral answer to `text` in a private-mode group: the "Looking…" edited. */
  const privately = async (h: Harness, language: 'ru' | 'en', text: string) => {
    const people = groupOf(h, language);
    await makePrivate(h, people.admin, people.group);
    const before = h.api.messagesIn(people.group.id).length;
    h.api.sendText({ from: people.ann, chat: people.group, text });
    const first = await h.api.nextEphemeralMessage(people.group.id, people.ann.id);
    await h.settle();
    return { ...people, before, answer: h.api.ephemeralMessage(people.group.id, people.ann.id, first.ephemeral_message_id!)! };
  };

  it('opens a record, goes back to the list, refreshes, watches and follows a cross-link, all in place (en)', async () => {
    const h = await start();
    const { ann, group, before, answer } = await privately(h, 'en', '/spec ДП-77/2026');
    const { message: spec } = await h.press(ann, answer, h.button(answer, '3'));
    expect(spec?.ephemeral_message_id).toBe(answer.ephemeral_message_id);
    expect(spec?.text).toMatch(/^Specification/);
    const back = await h.press(ann, spec!, h.button(spec, '◀ Back to list'));
    expect(header(back.message)).toMatch(/^Specifications 1–5 of/);
    h.advance(60_000);
    const refreshed = await h.press(ann, back.message!, h.button(back.message, '🔄 Refresh'));
    expect(refreshed.answer.text).toBeDefined();
    const watched = await h.press(ann, refreshed.message!, h.button(refreshed.message, '🔔 Watch'));
    expect(labels(watched.message)).toContain('🔕 Stop watching');
    const { message: again } = await h.press(ann, watched.message!, h.button(watched.message, '3'));
    const { message: order } = await h.press(ann, again!, h.button(again, 'Request 0007300372'));
    expect(header(order)).toMatch(/^Order No\. 0007300372 dated /);
    // All of it in Ann's one ephemeral message: the group saw nothing.
    expect(h.api.ephemeralMessages(group.id, ann.id)).toHaveLength(1);
    expect(h.api.messagesIn(group.id)).toHaveLength(before);
    expect(failed(h)).toEqual([]);
  });

  it('keeps the 15-second rule when the portal is slow: "Ищу…" at once, the answer edited in later (ru)', async () => {
    const h = await start();
    const { admin, ann, group } = groupOf(h, 'ru');
    await makePrivate(h, admin, group);
    const held = h.portal.hangWhere((url) => url.includes('0007300100'));
    h.api.sendText({ from: ann, chat: group, text: '/order 0007300100' });
    const looking = await h.api.nextEphemeralMessage(group.id, ann.id);
    expect(looking.text).toBe('🔎 Ищу…');
    h.api.advanceTime(20);
    await h.api.waitFor(() => held.count() > 0);
    held.release();
    await h.settle();
    expect(h.api.ephemeralMessage(group.id, ann.id, looking.ephemeral_message_id!)?.text).toMatch(/^Заказ № 0007300100/);
    expect(failed(h)).toEqual([]);
  });

  it('/export sends the file to the asker’s private chat; the group sees nothing (ru)', async () => {
    const h = await start();
    const { admin, ann, group } = groupOf(h, 'ru');
    await makePrivate(h, admin, group);
    await h.ask(ann, '/start');
    const before = h.api.messagesIn(group.id).length;
    h.api.sendText({ from: ann, chat: group, text: '/export 0007300100' });
    const said = await h.api.nextEphemeralMessage(group.id, ann.id);
    const [file] = await h.api.waitFor(() => h.api.documentsIn(ann.id).length > 0 && h.api.documentsIn(ann.id));
    expect(file?.file_name).toMatch(/\.xlsx$/);
    await h.settle();
    expect(h.api.ephemeralMessage(group.id, ann.id, said.ephemeral_message_id!)?.text).toBe('Файл придёт в личный чат с ботом.');
    expect(h.api.messagesIn(group.id)).toHaveLength(before);
    expect(h.api.documentsIn(group.id)).toEqual([]);
  });

  it('/export before the asker started the bot: the note, no file anywhere (en)', async () => {
    const h = await start();
    const { admin, bob, group } = groupOf(h, 'en');
    await makePrivate(h, admin, group);
    const note = h.api.nextBotMessage(group.id);
    h.api.sendText({ from: bob, chat: group, text: '/export 0007300100' });
    expect((await note).text).toMatch(/^I answer this group’s lookups in private/);
    await h.settle();
    expect(h.api.documentsIn(group.id)).toEqual([]);
  });
});

describe('private mode: bad input and faults', () => {
  it('a forged or stale button on an ephemeral message gets the stale-button alert; nothing is posted (ru)', async () => {
    const h = await start();
    const { admin, ann, group } = groupOf(h, 'ru');
    await makePrivate(h, admin, group);
    h.api.sendText({ from: ann, chat: group, text: '/order status production' });
    const first = await h.api.nextEphemeralMessage(group.id, ann.id);
    await h.settle();
    const answer = h.api.ephemeralMessage(group.id, ann.id, first.ephemeral_message_id!)!;
    const before = h.api.messagesIn(group.id).length;
    for (const data of ['vs:5:0:@nokey', 'p:5:5:@gone-key', 'zz:1']) {
      const { answer: alert } = await h.press(ann, answer, data, true);
      expect(alert.show_alert).toBe(true);
    }
    expect(h.api.messagesIn(group.id)).toHaveLength(before);
    expect(h.api.ephemeralMessage(group.id, ann.id, first.ephemeral_message_id!)?.text).toBe(answer.text);
  });

  it('an ephemeral message the server no longer knows: a new one within the window, else the private chat (en)', async () => {
    const h = await start();
    const { admin, ann, group } = groupOf(h, 'en');
    await makePrivate(h, admin, group);
    await h.ask(ann, '/start');
    h.api.sendText({ from: ann, chat: group, text: '/order status production' });
    const first = await h.api.nextEphemeralMessage(group.id, ann.id);
    await h.settle();
    const answer = h.api.ephemeralMessage(group.id, ann.id, first.ephemeral_message_id!)!;
    // Within the window of the press: a new ephemeral message, answering it.
    h.api.failNext('editEphemeralMessageText', { error_code: 400, description: 'Bad Request: message to edit not found' });
    await h.press(ann, answer, h.button(answer, '▶'));
    const renewed = h.api.ephemeralMessages(group.id, ann.id).at(-1);
    expect(renewed?.ephemeral_message_id).not.toBe(first.ephemeral_message_id);
    expect(header(renewed)).toBe('Orders 6–10 of 21');
    // Past it (the portal slow, the message gone meanwhile): the private chat.
    const held = h.portal.hangWhere(() => true);
    const dm = h.api.nextBotMessage(ann.id);
    h.api.pressButton({ from: ann, message: renewed!, data: h.button(renewed, '▶') });
    await h.api.waitFor(() => held.count() > 0);
    h.api.advanceTime(16);
    h.api.failNext('editEphemeralMessageText', { error_code: 400, description: 'Bad Request: message to edit not found' });
    held.release();
    expect(header(await dm)).toBe('Orders 11–15 of 21');
    await h.settle();
    expect(h.logs.filter((line) => line.cause === 'Telegram refused an ephemeral message')).toHaveLength(1);
  });
});

describe('public mode, both languages', () => {
  it.each(['ru', 'en'] as const)('another user’s record press opens the record for them alone (%s)', async (language) => {
    const h = await start();
    const { ann, bob, group } = groupOf(h, language);
    const answer = await h.ask(ann, '/spec ДП-77/2026', group);
    await h.press(bob, answer, h.button(answer, '3'));
    const [own] = h.api.ephemeralMessages(group.id, bob.id);
    expect(own?.text).toMatch(language === 'ru' ? /^Спецификация/ : /^Specification/);
    expect(labels(own)).toContain(language === 'ru' ? '📣 Показать всем' : '📣 Show to everyone');
    expect(h.api.message(group.id, answer.message_id)?.edit_count).toBe(0);
  });

  it.each(['ru', 'en'] as const)('on an older server (10.1) another user’s press edits the answer as before (%s)', async (language) => {
    const h = await start('10.1');
    const { ann, bob, group } = groupOf(h, language);
    const answer = await h.ask(ann, '/order status production', group);
    const { message } = await h.press(bob, answer, h.button(answer, '▶'));
    expect(header(message)).toBe(language === 'ru' ? 'Заказы 6–10 из 21' : 'Orders 6–10 of 21');
    expect(h.api.messagesIn(group.id)).toHaveLength(1);
    // No ephemeral field went to a server that would have ignored it (a disabled ◀ is tried, and refused loudly: issue 31).
    expect(h.api.ignoredFields().filter((field) => field.field.includes('ephemeral'))).toEqual([]);
  });
});

describe('private mode with /autolookup', () => {
  it('answers a number in the chatter in its writer’s private chat, and says nothing where it cannot (ru)', async () => {
    const h = await start();
    h.api.setPrivacyMode(false);
    const { admin, ann, bob, group } = groupOf(h, 'ru');
    await h.ask(admin, '/autolookup on', group);
    await makePrivate(h, admin, group);
    await h.ask(ann, '/start');
    const before = h.api.messagesIn(group.id).length;
    const dm = h.api.nextBotMessage(ann.id);
    await say(h, ann, group, 'заказ 0007300100 готов?');
    expect((await dm).text).toBe('1. Заказ № 0007300100 · 18.11.2025 · Производство · 9\u00a0624\u00a0307,00 RUB');
    // Bob never started the bot: no note for chatter, nothing at all.
    await say(h, bob, group, 'а 0007300321?');
    expect(h.api.messagesIn(group.id)).toHaveLength(before);
  });
});
