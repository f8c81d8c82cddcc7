import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage } from '../support/bot-api/index.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// A stranger's refusal carries Request access; each admin gets the request with Allow / Deny;
// the first admin to decide wins, the others' copies say who decided; the requester is told.

let h: Harness;
const ANN = 910_001;
const BOB = 910_002;
const CARL = 910_003;
const MEMBER = 910_010;
const DAY = 86_400_000;
beforeAll(async () => {
  h = await startHarness({ env: { ALLOW_ANYONE: 'false', ADMIN_USER_IDS: `${ANN},${BOB},${CARL}`, ALLOWED_USER_IDS: String(MEMBER) } });
  const admins = [
    h.api.createUser({ id: ANN, first_name: 'Anna', username: 'anna', language_code: 'ru' }),
    h.api.createUser({ id: BOB, first_name: 'Bob', language_code: 'en' }),
    h.api.createUser({ id: CARL, first_name: 'Carl', language_code: 'en' }),
  ];
  for (const admin of admins) await h.ask(admin, '/start');
  // Bob reads the bot in English (/lang); Anna keeps DEFAULT_LANGUAGE, Russian.
  const sizes = await h.ask(admins[1]!, '/lang');
  await h.press(admins[1]!, sizes, h.button(sizes, 'English'));
  // Carl blocked the bot: he is skipped.
  h.api.blockBot(CARL);
});
afterAll(() => h.close());

const ann = () => h.api.createUser({ id: ANN, first_name: 'Anna', username: 'anna', language_code: 'ru' });
const bob = () => h.api.createUser({ id: BOB, first_name: 'Bob', language_code: 'en' });
const lastIn = (chatId: number): BotMessage => h.api.messagesIn(chatId).at(-1)!;
const accessLines = () => h.logs.filter((line) => line.audit === true && typeof line.msg === 'string' && line.msg.startsWith('access '));

/** A stranger is refused and presses Request access; the alert they get, and each admin's copy. */
const request = async (stranger: ReturnType<Harness['api']['createUser']>, chat?: ReturnType<Harness['api']['createGroup']>) => {
  const refusal = await h.ask(stranger, chat ? '/order@order_lookup_bot 1' : '/order 1', chat);
  const { answer } = await h.press(stranger, refusal, h.button(refusal, stranger.language_code === 'ru' ? 'Запросить доступ' : 'Request access'));
  return { answer, refusal, copies: { ann: lastIn(ANN), bob: lastIn(BOB) } };
};

describe('an access request', () => {
  it('reaches every admin but one who blocked the bot; the first to decide wins, every copy says who, the requester is told', async () => {
    const stranger = h.api.createUser({ first_name: 'Olga', last_name: 'Petrova', username: 'olga', language_code: 'en' });
    const { answer, copies } = await request(stranger);
    expect(answer).toMatchObject({ show_alert: true, text: "Your request was sent to the bot's administrators. The bot will tell you once one of them decides." });
    expect(copies.ann.text).toBe(['🔑 Запрос доступа', 'Имя: Olga Petrova', 'Имя пользователя: @olga', `ID: ${stranger.id}`, 'Язык: en', 'Где спросил: личный чат с ботом'].join('\n'));
    expect(copies.ann.buttons.map((button) => button.text)).toEqual(['Разрешить', 'Отказать']);
    expect(copies.bob.text).toBe(['🔑 Access request', 'Name: Olga Petrova', 'Username: @olga', `ID: ${stranger.id}`, 'Language: en', 'Asked in: a private chat with the bot'].join('\n'));
    expect(copies.bob.buttons.map((button) => button.text)).toEqual(['Allow', 'Deny']);
    expect(h.api.messagesIn(CARL).filter((message) => message.text.includes('Access request'))).toEqual([]);
    expect(h.logs).toContainEqual(expect.objectContaining({ msg: 'an admin cannot be sent the access request: they blocked the bot or never started it', adminId: CARL }));
    expect(h.logs).toContainEqual(expect.objectContaining({ audit: true, msg: 'access requested', userId: stranger.id, admins: 2 }));

    const pressed = await h.press(ann(), copies.ann, h.button(copies.ann, 'Разрешить'));
    expect(pressed.answer).toMatchObject({ text: 'Доступ открыт', show_alert: false });
    expect(h.api.message(ANN, copies.ann.message_id)).toMatchObject({ text: expect.stringMatching(/\n\n✅ Доступ открыт — Anna \(@anna\), \d\d:\d\d$/), buttons: [] });
    expect(h.api.message(BOB, copies.bob.message_id)).toMatchObject({ text: expect.stringMatching(/\n\n✅ Allowed by Anna \(@anna\), \d\d:\d\d$/), buttons: [] });
    expect((await h.api.nextBotMessage(stranger.id)).text).toBe('✅ Access granted: you can use the bot now. /help shows what it does.');
    expect(accessLines().at(-1)).toMatchObject({ by: ANN, action: 'allow', userId: stranger.id, outcome: 'granted', reason: 'access request' });
    expect((await h.ask(stranger, '/order 0007300100')).text).toContain('Order No. 0007300');

    // Bob's client still showed the buttons: his Deny comes too late, and changes nothing.
    const late = await h.press(bob(), copies.bob, h.button(copies.bob, 'Deny'), true);
    expect(late.answer).toMatchObject({ show_alert: true, text: 'Already decided by Anna (@anna): allowed.' });
    expect(accessLines().at(-1)).toMatchObject({ by: BOB, action: 'deny', userId: stranger.id, outcome: 'refused', reason: 'already decided' });
    expect((await h.ask(stranger, '/order 0007300100')).text).toContain('Order No. 0007300');
  });

  it('in a group: the admins see where, a denial is told in the group when the private chat cannot be written to', async () => {
    const group = h.api.createGroup({ title: 'Клиент «Трубы»' });
    const stranger = h.api.createUser({ first_name: 'Иван', language_code: 'ru' });
    const { answer, copies } = await request(stranger, group);
    expect(answer.text).toBe('Запрос отправлен администраторам бота. Бот сообщит вам, когда кто-то из них решит.');
    expect(copies.ann.text).toContain(`Где спросил: Клиент «Трубы» (${group.id})`);
    expect(copies.bob.text).toContain(`Asked in: Клиент «Трубы» (${group.id})`);
    await h.press(bob(), copies.bob, h.button(copies.bob, 'Deny'));
    expect(h.api.message(ANN, copies.ann.message_id)?.text).toMatch(/\n\n❌ Отказано — Bob, \d\d:\d\d$/);
    // Иван never started the bot: he is told in the group.
    expect(lastIn(group.id).text).toBe('Иван: ваш запрос доступа к боту отклонён.');
    expect(accessLines().at(-1)).toMatchObject({ by: BOB, action: 'deny', userId: stranger.id, outcome: 'refused', reason: 'access request' });
  });

  it('is sent at most once a day; a button of the older request decides nothing', async () => {
    const stranger = h.api.createUser({ language_code: 'ru' });
    const first = await request(stranger);
    h.advance(60_000);
    const again = await h.press(stranger, first.refusal, h.button(first.refusal, 'Запросить доступ'));
    expect(again.answer.text).toMatch(/^Вы уже запрашивали доступ в \d\d:\d\d\. Администраторы решат; снова запросить можно после \d\d\.\d\d\.\d{4} \d\d:\d\d\.$/);
    expect(lastIn(ANN).message_id).toBe(first.copies.ann.message_id);
    h.advance(DAY);
    const second = await h.press(stranger, first.refusal, h.button(first.refusal, 'Запросить доступ'));
    expect(second.answer.text).toBe('Запрос отправлен администраторам бота. Бот сообщит вам, когда кто-то из них решит.');
    const stale = await h.press(ann(), first.copies.ann, h.button(first.copies.ann, 'Разрешить'));
    expect(stale.answer).toMatchObject({ show_alert: true, text: 'Этот запрос больше не действует: человек с тех пор запросил доступ заново, или запроса не было.' });
    expect((await h.ask(stranger, '/order 1')).text).toContain('Нет доступа');
  });
});

describe('bad input', () => {
  it('a forged Allow: a user who is no admin is told so, a stranger gets the refusal; nothing is granted', async () => {
    const stranger = h.api.createUser({ language_code: 'en' });
    const { copies } = await request(stranger);
    const data = h.button(copies.bob, 'Allow');
    const member = h.api.createUser({ id: MEMBER, language_code: 'en' });
    const memberChat = await h.ask(member, '/start');
    const byMember = await h.press(member, memberChat, data, true);
    expect(byMember.answer).toMatchObject({ show_alert: true, text: "Only the bot's administrators can do this." });
    expect(accessLines().at(-1)).toMatchObject({ by: MEMBER, action: 'allow', userId: stranger.id, outcome: 'refused', reason: 'not an admin' });
    const other = h.api.createUser({ language_code: 'en' });
    const otherChat = await h.ask(other, '/start');
    const byStranger = await h.press(other, otherChat, data, true);
    expect(byStranger.answer).toMatchObject({ show_alert: true, text: expect.stringContaining('You have no access to this bot') });
    h.advance(30_000);
    expect((await h.ask(stranger, '/order 0007300100')).text).toContain('You have no access');
  });

  it.each([
    ['en', BOB, 'gy:999999', 'This request is no longer valid: the person has asked again since, or it never existed.'],
    ['ru', ANN, 'gn:999999', 'Этот запрос больше не действует: человек с тех пор запросил доступ заново, или запроса не было.'],
  ] as const)('%s: an admin’s button of a request that does not exist', async (_language, adminId, data, text) => {
    const admin = adminId === ANN ? ann() : bob();
    const chat = await h.ask(admin, '/start');
    expect((await h.press(admin, chat, data, true)).answer).toMatchObject({ show_alert: true, text });
  });

  it('someone who may use the bot pressing Request access is told so', async () => {
    const member = h.api.createUser({ id: MEMBER, language_code: 'ru' });
    const chat = await h.ask(member, '/start');
    expect((await h.press(member, chat, 'ga', true)).answer).toMatchObject({ show_alert: true, text: 'У вас уже есть доступ к боту.' });
  });
});

describe('no admin to ask', () => {
  it('says so, with the id to give them', async () => {
    const alone = await startHarness({ env: { ALLOW_ANYONE: 'false', ADMIN_USER_IDS: '920001' } });
    try {
      const stranger = alone.api.createUser({ language_code: 'en' });
      const refusal = await alone.ask(stranger, '/order 1');
      // The admin never started the bot: Telegram refuses to write to them first.
      const { answer } = await alone.press(stranger, refusal, alone.button(refusal, 'Request access'));
      expect(answer).toMatchObject({ show_alert: true, text: `No administrator could be reached right now. Send your Telegram ID ${stranger.id} to the administrator directly.` });
    } finally {
      await alone.close();
    }
  });
});
