import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chat, User } from '../../src/telegram/telegraf/core.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Guest mode (issue 32, point 5): `@bot …` in a chat the bot is not a member of, answered once with
// answerGuestQuery. The customer's chat is one the bot never saw.

let h: Harness;
const ALLOWED = 610_001;
const ADMIN = 910_001;
const ME = '@order_lookup_bot';
beforeAll(async () => {
  h = await startHarness({ env: { ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: String(ALLOWED), ADMIN_USER_IDS: String(ADMIN) } });
});
afterEach(() => h.portal.fail(undefined));
afterAll(() => h.close());

let nextChat = 620_000_001;
const customerChat = (): Chat.PrivateChat => ({ id: nextChat++, type: 'private', first_name: 'Customer' });
const customer: User = { id: 630_000_001, is_bot: false, first_name: 'Customer' };

type Text = { text: string; entities: unknown[]; reply_markup?: { inline_keyboard: Array<Array<{ text: string; url?: string }>> } };

/** A salesperson summons the bot in a chat with a customer; the message the bot posted there. */
const summon = async (from: User, text: string, replyTo?: string) => {
  const id = h.api.sendGuestMessage({ from, chat: customerChat(), text, ...(replyTo === undefined ? {} : { replyTo: { from: customer, text: replyTo } }) });
  if (id === undefined) throw new Error('no guest message was sent');
  const answer = await h.api.waitForGuestAnswer(id);
  const message = h.api.inlineMessage(answer.inline_message_id)!;
  return { id, answer, message, result: answer.result as { title: string; input_message_content: Text } & Pick<Text, 'reply_markup'> };
};

const salesperson = (language_code: 'ru' | 'en') => h.api.createUser({ id: ALLOWED, language_code });

describe('guest mode: a lookup in a chat the bot is not in', () => {
  it('answers "@bot 0007300100" with the order card and the time of its data (en)', async () => {
    const { message, result } = await summon(salesperson('en'), `${ME} 0007300100`);
    expect(message.text).toContain('0007300100');
    expect(message.text).toContain('Data as of 23 Nov 2026, 14:05');
    expect(result.reply_markup?.inline_keyboard[0]?.[0]).toMatchObject({ text: 'Open in the bot', url: expect.stringMatching(/^https:\/\/t\.me\/order_lookup_bot\?start=find_[\w-]+$/) });
    expect(h.logs.find((line) => line.audit === true && line.via === 'guest')).toMatchObject({ userId: ALLOWED, value: '0007300100' });
  });

  it('answers in Russian for a Russian-speaking user (ru)', async () => {
    const { message } = await summon(salesperson('ru'), `${ME} 0007300100`);
    expect(message.text).toContain('Данные на 23.11.2026 14:05');
  });

  it('reads a bare mention in reply to a customer\'s message with the recognisers of pasted numbers', async () => {
    const { message } = await summon(salesperson('ru'), ME, 'Добрый день! где мой заказ 7300100?');
    expect(message.text).toContain('0007300100');
    expect(h.portal.requests.at(-1)).toContain('SAP_ID=0007300100');
  });

  it('several matches: the first three as one card with the count and "open in the bot", which runs the lookup there', async () => {
    const user = salesperson('en');
    const { message, result } = await summon(user, `${ME} spec ДП-77/2026`);
    expect(message.text).toMatch(/^Records found: 8 · /);
    expect(message.text).toContain('The first 3:');
    expect(message.text.match(/^• /gm)).toHaveLength(3);
    const link = result.reply_markup!.inline_keyboard[0]![0]!.url!;
    const payload = new URL(link).searchParams.get('start')!;
    const reply = await h.ask(user, `/start ${payload}`);
    expect(reply.text).toContain('ДП-77/2026');
    expect(reply.text).not.toContain('Order Lookup');
  });

  it('a stale "open in the bot" link is said to be out of date (ru, en)', async () => {
    expect((await h.ask(salesperson('ru'), '/start find_AAAAAAAAAAAAAAAA')).text).toMatch(/^Эта ссылка устарела/);
    expect((await h.ask(salesperson('en'), '/start find_AAAAAAAAAAAAAAAA')).text).toMatch(/^This link is out of date/);
  });

  it('nothing found: a short "nothing found" (en, ru)', async () => {
    expect((await summon(salesperson('en'), `${ME} 0009999999`)).message.text).toMatch(/^Nothing found: /);
    expect((await summon(salesperson('ru'), `${ME} 0009999999`)).message.text).toMatch(/^Ничего не найдено: /);
  });

  it('a mention with no number anywhere gets how to ask (en, ru)', async () => {
    expect((await summon(salesperson('en'), ME, 'hello!')).message.text).toContain(`${ME} 0007300100`);
    expect((await summon(salesperson('ru'), `${ME} привет`)).message.text).toMatch(/^Напишите @order_lookup_bot 0007300100/);
  });

  it('a stranger gets one neutral article with no data, and the portal is not asked (en, ru)', async () => {
    const before = h.portal.requests.length;
    const en = await summon(h.api.createUser({ language_code: 'en' }), `${ME} 0007300100`);
    expect(en.message.text).toBe("This bot answers the company's staff only.");
    const ru = await summon(h.api.createUser({ language_code: 'ru' }), `${ME} 0007300100`);
    expect(ru.message.text).toBe('Этот бот отвечает только сотрудникам компании.');
    expect(JSON.stringify([en.result, ru.result])).not.toContain('0007300100');
    expect(h.portal.requests.length).toBe(before);
  });

  it('a user removed from the allowlist since gets the neutral article', async () => {
    const admin = h.api.createUser({ id: ADMIN, language_code: 'en' });
    const person = h.api.createUser({ language_code: 'en' });
    await h.ask(admin, `/allow ${person.id}`);
    expect((await summon(person, `${ME} 0007300100`)).message.text).toContain('0007300100');
    await h.ask(admin, `/deny ${person.id}`);
    expect((await summon(person, `${ME} 0007300100`)).message.text).toBe("This bot answers the company's staff only.");
  });

  it('the portal failing: a short "not answering", no data (en)', async () => {
    h.portal.fail('http500');
    expect((await summon(salesperson('en'), `${ME} 0007300100`)).message.text).toBe('The portal is not answering. Please try again in a minute.');
  });

  it('a guest query Telegram refuses (answered already, too late) is logged, and the bot goes on', async () => {
    const user = salesperson('en');
    h.api.failNext('answerGuestQuery', { error_code: 400, description: 'Bad Request: query is too old and response timeout expired or query ID is invalid' });
    h.api.sendGuestMessage({ from: user, chat: customerChat(), text: `${ME} 0007300100` });
    await h.settle();
    expect(h.logs.some((line) => line.msg === 'Telegram refused the answer to a guest query')).toBe(true);
    expect((await summon(user, `${ME} 0007300100`)).message.text).toContain('0007300100');
    expect(h.api.failedCalls()).toEqual([]);
  });
});
