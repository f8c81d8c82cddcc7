import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

// The bot added to a group says once what it does, the group's id and whether the group may use
// it; removed, the group's watches pause (nothing is sent there) and resume when it is back.
// /start is short: three lines and buttons with examples; /help keeps the full list.

let h: Harness;
const ALLOWED_GROUP = -100_940_001;
const ADMIN = 940_002;
beforeAll(async () => {
  h = await startHarness({ env: { ALLOW_ANYONE: 'false', ADMIN_USER_IDS: String(ADMIN), ALLOWED_CHAT_IDS: String(ALLOWED_GROUP), WATCH_INTERVAL_SECONDS: '1' } });
});
afterAll(() => h.close());

const notifications = (chatId: number) => h.api.messagesIn(chatId).filter((message) => message.text.startsWith('🔔 Изменения') || message.text.startsWith('🔔 Changes'));
/** Order 0007300100 changes on the portal, and the watches have time to see it. */
const orderChanges = async () => {
  h.portal.advanceDemoClock(60_000);
  for (let round = 0; round < 5; round += 1) {
    h.advance(1_000);
    await h.watches().runOnce();
  }
  await h.settle();
};

describe('the bot added to a group', () => {
  it('ru: a group not allowed yet hears what the bot does, its id, and how an admin opens it', async () => {
    const group = h.api.createGroup({ title: 'Клиент' });
    const owner = h.api.createUser({ language_code: 'ru' });
    h.api.addBotToGroup({ chat: group, by: owner });
    const hello = await h.api.nextBotMessage(group.id);
    expect(hello.text).toBe(
      [
        '👋 Здравствуйте! Я нахожу заказы и спецификации к договорам в клиентском портале: /order 0007300100, /spec ДП-77/2026; все команды — /help.',
        '',
        `ID этой группы: ${group.id}`,
        '',
        '🔒 Группы пока нет в списке: здесь бот отвечает только тем, у кого есть личный доступ.',
        '',
        'Для администраторов: администратор бота открывает его всей группе, отправив здесь /allow (или добавив ID выше в ALLOWED_CHAT_IDS). Язык группы её администраторы выбирают командой /lang.',
      ].join('\n'),
    );
    expect(hello.entities).toContainEqual(expect.objectContaining({ type: 'code', offset: hello.text.indexOf(String(group.id)) }));
    await h.settle();
    // Once: nothing else is said.
    expect(h.api.messagesIn(group.id)).toHaveLength(1);
    // A bot admin then opens it, in the group itself.
    expect((await h.ask(h.api.createUser({ id: ADMIN, language_code: 'ru' }), '/allow', group)).text).toContain('Теперь эта группа может пользоваться ботом');
  });

  it('en: an allowed group is told so', async () => {
    const group = h.api.createGroup({ id: ALLOWED_GROUP, title: 'Sales' });
    h.api.addBotToGroup({ chat: group, by: h.api.createUser({ language_code: 'en' }) });
    const hello = await h.api.nextBotMessage(group.id);
    expect(hello.text.split('\n\n')).toEqual([
      '👋 Hello! I find production orders and contract specifications in the customer portal: /order 0007300100, /spec ДП-77/2026; /help lists every command.',
      `This group's id: ${ALLOWED_GROUP}`,
      '✅ This group is allowed: every member can use the bot here.',
      'For admins: a bot administrator opens the bot to the whole group by sending /allow here (or by adding the id above to ALLOWED_CHAT_IDS). The group’s admins set its language with /lang.'.replace('’', "'"),
    ]);
  });

  it('removed, the group’s watches pause and nothing is sent there; added back, they resume', async () => {
    const group = h.api.createGroup({ id: -100_940_010, title: 'Watchers' });
    const member = h.api.createUser({ language_code: 'en' });
    const admin = h.api.createUser({ id: ADMIN, language_code: 'en' });
    h.api.addBotToGroup({ chat: group, by: member });
    await h.api.nextBotMessage(group.id);
    await h.ask(admin, '/allow', group);
    expect((await h.ask(member, '/watch 0007300100', group)).text).toMatch(/^🔔 Watching/);

    h.api.removeBotFromGroup({ chat: group, by: member, status: 'kicked' });
    await h.settle();
    expect(h.logs).toContainEqual(expect.objectContaining({ chatId: group.id, msg: 'removed from a group: its watches are paused' }));
    const sendsBefore = h.api.callsTo('sendMessage', { chatId: group.id }).length;
    await orderChanges();
    // Not even tried: a paused watch is not polled for, and nothing is queued for the group.
    expect(h.api.callsTo('sendMessage', { chatId: group.id })).toHaveLength(sendsBefore);

    h.api.addBotToGroup({ chat: group, by: member });
    const back = await h.api.nextBotMessage(group.id);
    expect(back.text).toContain('✅ This group is allowed');
    expect(h.logs).toContainEqual(expect.objectContaining({ chatId: group.id, msg: 'watches resumed' }));
    await orderChanges();
    expect(notifications(group.id)).toHaveLength(1);
    expect(notifications(group.id)[0]?.text).toContain('0007300100');
  });
});

describe('/start', () => {
  it.each([
    ['en', ['📦 Order 0007300100', '📄 Contract ДП-77/2026', '🏭 Orders in production', '📋 All commands'], 'Hello! I find production orders', 'Order No. 0007300100', 'You can just send a number'],
    ['ru', ['📦 Заказ 0007300100', '📄 Договор ДП-77/2026', '🏭 Заказы в производстве', '📋 Все команды'], 'Здравствуйте! Я нахожу заказы', 'Заказ № 0007300100', 'Можно просто прислать номер'],
  ] as const)('%s: three lines, and buttons that run examples and show every command', async (language, buttons, start, found, help) => {
    const user = h.api.createUser({ id: ADMIN, language_code: language });
    const welcome = await h.ask(user, '/start');
    expect(welcome.text.split('\n')).toHaveLength(3);
    expect(welcome.text.startsWith(start)).toBe(true);
    expect(welcome.buttons.map((button) => button.text)).toEqual(buttons);
    await h.press(user, welcome, h.button(welcome, buttons[0]));
    expect((await h.api.nextBotMessage(user.id)).text).toContain(found);
    await h.press(user, welcome, h.button(welcome, buttons[1]));
    expect((await h.api.nextBotMessage(user.id)).text).toContain('ДП-77/2026');
    await h.press(user, welcome, h.button(welcome, buttons[3]));
    const all = await h.api.nextBotMessage(user.id);
    expect(all.text.startsWith(help)).toBe(true);
    expect(all.text).toBe((await h.ask(user, '/help')).text);
  });
});
