import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';
import type { PortalFault } from '../support/test-portal.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(() => h.portal.fail(undefined));
afterAll(() => h.close());

describe('when the portal fails', () => {
  it.each<[PortalFault, string, string]>([
    ['http500', 'The portal answered with an error', 'Портал ответил ошибкой'],
    ['rejected', 'The portal answered with an error', 'Портал ответил ошибкой'],
    ['garbage', 'data the bot cannot read', 'не может прочитать'],
    ['wrongShape', 'data the bot cannot read', 'не может прочитать'],
    ['hang', 'did not answer in time', 'не ответил вовремя'],
  ])('%s: the user is told, in their language, and the log has the details', async (fault, english, russian) => {
    h.portal.fail(fault);
    const en = await h.ask(h.api.createUser({ language_code: 'en' }), '/order 0007300100');
    expect(en.text).toContain(english);
    const ru = await h.ask(h.api.createUser({ language_code: 'ru' }), '/order 0007300100');
    expect(ru.text).toContain(russian);
    expect(en.text).not.toMatch(/Error:|at .*\.ts|stack/);
    const logged = h.logs.filter((line) => line.msg === 'portal call failed');
    expect(logged.at(-1)).toMatchObject({ level: 40, err: { type: expect.stringMatching(/^Portal\w+Error$/) } });
  });

  it('tells a user paging when the portal fails, and the page stays as it was', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const first = await h.ask(user, '/order status production');
    h.portal.fail('http500');
    const notice = h.api.nextBotMessage(user.id);
    const { answer, message } = await h.press(user, first, h.button(first, '▶'));
    // The press is answered at once, before the portal is asked; the failure comes as a message.
    expect(answer).toMatchObject({ text: undefined, show_alert: false });
    expect((await notice).text).toContain('The portal answered with an error');
    expect(message?.text.split('\n')[0]).toBe('Orders 1–5 of 21');
  });

  it('offers "Try again" when the portal is down, which turns the notice into the results', async () => {
    h.portal.fail('hang');
    const user = h.api.createUser({ language_code: 'en' });
    const notice = await h.ask(user, '/order status production');
    expect(notice.text).toContain('did not answer in time');
    expect(notice.buttons.map((button) => button.text)).toEqual(['🔁 Try again']);
    h.portal.fail(undefined);
    const { message } = await h.press(user, notice, h.button(notice, '🔁 Try again'));
    expect(message?.text.split('\n')[0]).toBe('Orders 1–5 of 21');
    expect(h.api.messagesIn(user.id)).toHaveLength(1);
  });

  it('offers no "Try again" where another try cannot help', async () => {
    h.portal.fail('wrongShape');
    const user = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(user, '/order 0007300100')).buttons).toEqual([]);
  });

  it('recovers as soon as the portal does', async () => {
    h.portal.fail('http500');
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/order 0007300100');
    h.portal.fail(undefined);
    expect((await h.ask(user, '/order 0007300100')).text).toMatch(/^Order No\. \d{10} dated /);
    expect(h.api.failedCalls()).toEqual([]);
  });
});
