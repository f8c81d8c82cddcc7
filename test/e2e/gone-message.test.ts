import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('a message deleted under a button press', () => {
  it('gets the next page as a new message, and no error', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const results = await h.ask(user, '/order status production');
    // The press reaches the bot, and the user deletes the message before the bot can edit it.
    const held = h.portal.hangWhere((url) => url.includes('offset=5'));
    const id = h.api.pressButton({ from: user, message: results, data: h.button(results, '▶') });
    await h.api.waitForAnswer(id);
    await h.api.waitFor(() => held.count() === 1, { description: 'the page 2 request' });
    h.api.deleteMessage({ from: user, message: results });
    held.release();
    await h.settle();
    const shown = h.api.messagesIn(user.id);
    expect(shown.map((message) => message.text.split('\n')[0])).toEqual(['Orders 6–10 of 21']);
    expect(shown[0]?.buttons.map((button) => button.text)).toContain('◀');
    expect(h.api.messagesIn(user.id).some((message) => message.text.includes('Something went wrong'))).toBe(false);
  });

  it('in a forum topic, sends it to the same topic', async () => {
    const admin = h.api.createUser({ language_code: 'en' });
    const forum = h.api.createGroup({ type: 'supergroup', forum: true });
    h.api.sendText({ from: admin, chat: forum, text: '/spec@order_lookup_bot ДП-77/2026', threadId: 7 });
    const results = await h.api.nextBotMessage(forum.id);
    h.api.setMemberStatus(forum, admin, 'administrator');
    const held = h.portal.hangWhere((url) => url.includes('CONTRACT_NUMBER') && url.includes('offset=5'));
    const id = h.api.pressButton({ from: admin, message: results, data: h.button(results, '▶') });
    await h.api.waitForAnswer(id);
    await h.api.waitFor(() => held.count() === 1, { description: 'the page 2 request' });
    h.api.deleteMessage({ from: admin, message: results });
    held.release();
    await h.settle();
    expect(h.api.messagesIn(forum.id).map((message) => [message.text.split('\n')[0], message.message_thread_id])).toEqual([
      ['Specifications 6–8 of 8', 7],
    ]);
  });

  it('never failed a Telegram call it did not recover from', () => {
    expect(h.api.failedCalls().map((call) => call.method)).toEqual(['editMessageText', 'editMessageText']);
  });
});
