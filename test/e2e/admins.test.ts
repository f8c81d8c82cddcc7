import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/telegram/telegraf/core.ts';
import type { BotMessage, SendTextInput } from '../support/bot-api/index.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Admins (ADMIN_USER_IDS) manage who may use the bot from the chat: /allow, /deny, /users. What
// they change is in force at once, merged with ALLOWED_USER_IDS and ALLOWED_CHAT_IDS, which the
// chat cannot change. Every grant or refusal leaves one audit line.

let h: Harness;
const ADMIN = 900_001;
const ENV_USER = 900_010;
const ENV_GROUP = -100_900_020;
beforeAll(async () => {
  h = await startHarness({
    env: { ALLOW_ANYONE: 'false', ADMIN_USER_IDS: String(ADMIN), ALLOWED_USER_IDS: String(ENV_USER), ALLOWED_CHAT_IDS: String(ENV_GROUP), WATCH_INTERVAL_SECONDS: '1' },
  });
});
afterAll(() => h.close());

const admin = (language_code: 'ru' | 'en') => h.api.createUser({ id: ADMIN, first_name: 'Admin', language_code });
const accessLines = () => h.logs.filter((line) => line.audit === true && typeof line.msg === 'string' && line.msg.startsWith('access '));
/** Sends and waits until everything is handled; the bot's last message in the chat (the next ones are after it). */
const send = async (input: SendTextInput): Promise<BotMessage> => {
  const chatId = input.chat?.id ?? input.from.id;
  h.api.sendText(input);
  await h.settle();
  const last = h.api.messagesIn(chatId).at(-1);
  if (!last) throw new Error('the bot said nothing');
  return h.api.nextBotMessage(chatId, { after: last.message_id - 1 });
};
/** "14:05" or whatever the harness's clock says now. */
const TIME = '\\d\\d:\\d\\d';

describe('/allow and /deny by id', () => {
  it('an admin allows a stranger, who can use the bot at once; /deny takes it away at once, with the refusal and its Request access button back', async () => {
    const boss = admin('en');
    const stranger = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(stranger, '/order 0007300100')).text).toContain('You have no access to this bot');
    const before = accessLines().length;
    expect((await h.ask(boss, `/allow ${stranger.id}`)).text).toBe(`✅ ${stranger.id} can use the bot now.`);
    expect((await h.ask(stranger, '/order 0007300100')).text).toContain('Order No. 0007300');
    expect(accessLines().slice(before)).toEqual([expect.objectContaining({ by: ADMIN, action: 'allow', userId: stranger.id, outcome: 'granted', msg: 'access granted', time: expect.any(Number) })]);

    expect((await h.ask(boss, `/deny ${stranger.id}`)).text).toBe(`${stranger.id} can no longer use the bot; their watches are stopped.`);
    h.advance(60_000);
    const refusal = await h.ask(stranger, '/order 0007300100');
    expect(refusal.text).toContain('You have no access to this bot');
    expect(refusal.text).toContain('Or press Request access');
    expect(refusal.buttons.map((button) => button.text)).toEqual(['Request access']);
    expect(accessLines().at(-1)).toMatchObject({ by: ADMIN, action: 'deny', userId: stranger.id, outcome: 'removed', msg: 'access removed' });
  });

  it('says so when the person is allowed already: by the chat (when, by whom), by the environment, as an admin', async () => {
    const boss = admin('ru');
    const person = h.api.createUser({ language_code: 'ru' });
    await h.ask(boss, `/allow ${person.id}`);
    expect((await h.ask(boss, `/allow ${person.id}`)).text).toMatch(new RegExp(`^${person.id} уже есть в списке: добавлен ${TIME}, добавил ${ADMIN}\\.$`));
    expect((await h.ask(boss, `/allow ${ENV_USER}`)).text).toBe(`${ENV_USER} уже имеет доступ: задан в окружении (ALLOWED_USER_IDS).`);
    expect((await h.ask(boss, `/allow ${ADMIN}`)).text).toBe(`${ADMIN} — администратор (ADMIN_USER_IDS), доступ у него уже есть.`);
    expect((await h.ask(boss, '/deny 123456')).text).toBe('123456 нет в списке: убирать нечего.');
    expect(accessLines().slice(-4).map((line) => [line.outcome, line.reason])).toEqual([
      ['refused', 'already allowed'],
      ['refused', 'allowed in the environment'],
      ['refused', 'an admin'],
      ['refused', 'not on the list'],
    ]);
  });
});

describe('bad input', () => {
  it.each([
    ['en', '/allow abc', '“abc” is not a Telegram id: an id is a number such as 123456789. The bot tells a refused person their id: ask them for it.', 'badId'],
    ['ru', '/allow abc', '«abc» — не Telegram ID: ID — это число, например 123456789. Бот сообщает ID каждому, кому отказал: спросите его у человека.', 'badId'],
    ['en', '/allow -1001234567890', "-1001234567890 is a group's id, not a person's. To open the bot to a group, send /allow in that group; to close it, /deny there.", 'groupId'],
    ['ru', '/allow -1001234567890', '-1001234567890 — это ID группы, а не человека. Чтобы открыть бота группе, отправьте /allow в самой группе; чтобы закрыть — /deny там же.', 'groupId'],
    ['en', `/deny ${ADMIN}`, `${ADMIN} is an administrator, set in the environment (ADMIN_USER_IDS): change it there, the chat cannot.`, 'an admin'],
    ['ru', `/deny ${ADMIN}`, `${ADMIN} — администратор, задан в окружении (ADMIN_USER_IDS): изменить это можно только там, не в чате.`, 'an admin'],
    ['en', `/deny ${ENV_USER}`, `${ENV_USER} is allowed in the environment (ALLOWED_USER_IDS): remove the id there and restart the bot; the chat cannot remove it.`, 'allowed in the environment'],
    ['ru', `/deny ${ENV_USER}`, `${ENV_USER} имеет доступ через окружение (ALLOWED_USER_IDS): уберите ID там и перезапустите бота; из чата его не убрать.`, 'allowed in the environment'],
  ] as const)('%s %s', async (language, command, answer, reason) => {
    expect((await h.ask(admin(language), command)).text).toBe(answer);
    expect(accessLines().at(-1)).toMatchObject({ by: ADMIN, outcome: 'refused', reason });
    // Nothing was granted: the environment's user is still there, an admin still an admin.
    expect((await h.ask(h.api.createUser({ id: ENV_USER, language_code: 'en' }), '/order 0007300100')).text).toContain('Order No. 0007300');
  });

  it.each([
    ['en', 'Only the bot’s administrators can do this.'],
    ['ru', 'Это могут только администраторы бота.'],
  ] as const)('%s: a user who may use the bot but is no admin is told so, and nothing changes', async (language, answer) => {
    const user = h.api.createUser({ id: ENV_USER, language_code: language });
    const target = h.api.createUser({ language_code: 'en' });
    for (const command of [`/allow ${target.id}`, `/deny ${ENV_USER}`, '/users', '/stats']) {
      expect((await h.ask(user, command)).text.replace("'", '’')).toBe(answer);
    }
    expect(accessLines().slice(-2)).toEqual([
      expect.objectContaining({ by: ENV_USER, action: 'allow', outcome: 'refused', reason: 'not an admin' }),
      expect.objectContaining({ by: ENV_USER, action: 'deny', outcome: 'refused', reason: 'not an admin' }),
    ]);
    expect((await h.ask(target, '/order 0007300100')).text).toContain('You have no access');
  });

  it('a stranger trying /allow gets the refusal, nothing more', async () => {
    const stranger = h.api.createUser({ language_code: 'en' });
    const before = accessLines().length;
    const reply = await h.ask(stranger, `/allow ${stranger.id}`);
    expect(reply.text).toContain('You have no access to this bot');
    expect(accessLines().slice(before)).toEqual([]);
    h.advance(30_000);
    expect((await h.ask(stranger, '/order 1')).text).toBe(reply.text);
  });

  it.each([
    ['en', 'Whom to allow? Send /allow 123456789'],
    ['ru', 'Кому открыть доступ? Отправьте /allow 123456789'],
  ] as const)('%s: /allow alone in a private chat says how to use it', async (language, start) => {
    expect((await h.ask(admin(language), '/allow')).text.startsWith(start)).toBe(true);
  });
});

describe('/allow in reply to a forwarded message', () => {
  it('allows the person the forward came from, named in /users', async () => {
    const boss = admin('en');
    const person = h.api.createUser({ first_name: 'Olga', last_name: 'Petrova', username: 'olga', language_code: 'ru' });
    const forwarded = h.api.sendText({ from: boss, text: 'Please add me to the bot', forwardOrigin: { type: 'user', date: 1_795_000_000, sender_user: person } });
    await h.settle();
    expect((await send({ from: boss, text: '/allow', replyTo: forwarded })).text).toBe(`✅ Olga Petrova (@olga) (${person.id}) can use the bot now.`);
    expect((await h.ask(person, '/order 0007300100')).text).toContain('Заказ № 0007300');
    const users = await h.ask(boss, '/users');
    expect(users.text).toMatch(new RegExp(`• Olga Petrova \\(@olga\\) \\(${person.id}\\): added ${TIME} by ${ADMIN}; last seen ${TIME}`));
  });

  it.each([
    ['en', 'This message was forwarded from Ivan, who hides their account in forwards, so it carries no id. Ask them for their id'],
    ['ru', 'Сообщение переслано от Ivan, но этот человек скрывает аккаунт при пересылке, поэтому ID в нём нет. Спросите ID у него'],
  ] as const)('%s: a forward from someone who hides their account says to ask for the id, and allows nobody', async (language, start) => {
    const boss = admin(language);
    const forwarded = h.api.sendText({ from: boss, text: 'hello', forwardOrigin: { type: 'hidden_user', date: 1_795_000_000, sender_user_name: 'Ivan' } });
    await h.settle();
    const before = accessLines().length;
    expect((await send({ from: boss, text: '/allow', replyTo: forwarded })).text.startsWith(start)).toBe(true);
    expect(accessLines().slice(before)).toEqual([expect.objectContaining({ outcome: 'refused', reason: 'hiddenForward' })]);
  });
});

describe('groups', () => {
  it('/allow in a group opens it to every member; /deny closes it; the environment’s group cannot be closed from the chat', async () => {
    const boss = admin('ru');
    const group = h.api.createGroup({ title: 'Продажи' });
    const member = h.api.createUser({ language_code: 'ru' });
    expect((await h.ask(member, '/order@order_lookup_bot 0007300100', group)).text).toContain('В этом чате бот недоступен');
    expect((await h.ask(boss, '/allow', group)).text).toBe('✅ Теперь эта группа может пользоваться ботом: все участники могут искать заказы и следить за ними здесь.');
    expect((await h.ask(member, '/order 0007300100', group)).text).toContain('Заказ № 0007300');
    expect(accessLines().at(-1)).toMatchObject({ by: ADMIN, action: 'allow', chatId: group.id, outcome: 'granted' });
    expect((await h.ask(boss, '/users')).text).toMatch(new RegExp(`• Продажи \\(${group.id}\\): в списке с ${TIME}, добавил ${ADMIN}; активность: ${TIME}`));
    expect((await h.ask(boss, '/deny', group)).text).toBe('Эта группа больше не может пользоваться ботом; её наблюдения остановлены.');
    h.advance(5 * 60_000);
    expect((await h.ask(member, '/order 0007300100', group)).text).toContain('В этом чате бот недоступен');

    const envGroup = h.api.createGroup({ id: ENV_GROUP });
    expect((await h.ask(boss, '/deny', envGroup)).text).toBe(
      'Эта группа имеет доступ через окружение (ALLOWED_CHAT_IDS): уберите её ID там и перезапустите бота; из чата её не убрать.',
    );
  });

  it('in a group, /allow in reply to a member’s message allows that member alone', async () => {
    const boss = admin('en');
    const group = h.api.createGroup();
    const member = h.api.createUser({ first_name: 'Pavel', language_code: 'en' });
    const asked = h.api.sendText({ from: member, chat: group, text: 'can I use the bot?' });
    await h.settle();
    expect((await send({ from: boss, chat: group, text: '/allow', replyTo: asked })).text).toBe(`✅ Pavel (${member.id}) can use the bot now.`);
    expect((await h.ask(member, '/order 0007300100')).text).toContain('Order No. 0007300');
  });
});

describe('/users', () => {
  it.each(['en', 'ru'] as const)('%s: lists admins and the environment’s users and groups (not removable there), and those added in the chat', async (language) => {
    // Each on the lists uses the bot first: each has been seen.
    await h.ask(h.api.createUser({ id: ENV_USER, language_code: language }), '/order 0007300100');
    await h.ask(h.api.createUser({ language_code: language }), '/order 0007300100', h.api.createGroup({ id: ENV_GROUP }));
    const text = (await h.ask(admin(language), '/users')).text.replace(/\d\d:\d\d/g, 'HH:MM');
    const expected =
      language === 'en'
        ? [
            'Who can use the bot',
            '',
            'Administrators (ADMIN_USER_IDS, set in the environment):',
            `• ${ADMIN}; last seen HH:MM`,
            '',
            'Users from the environment (ALLOWED_USER_IDS, not removable here):',
            `• ${ENV_USER}; last seen HH:MM`,
            '',
            'Groups from the environment (ALLOWED_CHAT_IDS, not removable here):',
            `• ${ENV_GROUP}; last seen HH:MM`,
            '',
            'Users added in the chat:',
          ]
        : [
            'Кто может пользоваться ботом',
            '',
            'Администраторы (ADMIN_USER_IDS, заданы в окружении):',
            `• ${ADMIN}; активность: HH:MM`,
            '',
            'Пользователи из окружения (ALLOWED_USER_IDS, здесь не убрать):',
            `• ${ENV_USER}; активность: HH:MM`,
            '',
            'Группы из окружения (ALLOWED_CHAT_IDS, здесь не убрать):',
            `• ${ENV_GROUP}; активность: HH:MM`,
            '',
            'Пользователи, добавленные в чате:',
          ];
    const lines = text.split('\n');
    expect(lines.slice(0, expected.length)).toEqual(expected);
    // Then each user added in the chat, with when, by whom and when last seen, then the groups.
    const added = lines.slice(expected.length, lines.indexOf(language === 'en' ? 'Groups added in the chat:' : 'Группы, добавленные в чате:') - 1);
    expect(added.length).toBeGreaterThan(0);
    for (const line of added) expect(line).toMatch(language === 'en' ? /^• .*\(?\d+\)?: added HH:MM by \d+; last seen (HH:MM|never)$/ : /^• .*\(?\d+\)?: в списке с HH:MM, добавил \d+; активность: (HH:MM|не было)$/);
  });
});

describe('removing a user', () => {
  it('stops their watches and their inline answers at once', async () => {
    const boss = admin('en');
    const person = h.api.createUser({ language_code: 'en' });
    await h.ask(boss, `/allow ${person.id}`);
    expect((await h.ask(person, '/watch 0007300100')).text).toMatch(/^🔔 Watching/);
    const inline = async (who: User) => {
      const id = h.api.sendInlineQuery({ from: who, query: '0007300100' });
      return (await h.api.waitForInlineAnswer(id)).results as Array<{ title: string }>;
    };
    expect((await inline(person))[0]?.title).toContain('0007300100');
    await h.ask(boss, `/deny ${person.id}`);
    expect((await inline(person)).map((result) => result.title)).toEqual(['No access']);
    // The watch went with the access: a change of the order tells them nothing.
    h.portal.advanceDemoClock(60_000);
    h.advance(60_000);
    await h.watches().runOnce();
    await h.settle();
    expect(h.api.messagesIn(person.id).filter((message) => message.text.startsWith('🔔 Changes'))).toEqual([]);
    expect(h.logs).toContainEqual(expect.objectContaining({ audit: true, action: 'deny', userId: person.id, outcome: 'removed' }));
  });
});
