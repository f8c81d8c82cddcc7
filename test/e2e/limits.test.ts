import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { PAGE_SIZE: '20' } });
});
afterAll(() => h.close());

describe("within Telegram's limits", () => {
  it('renders a page of 20 orders in one message Telegram accepts', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const reply = await h.ask(user, '/order material 530х8');
    expect(reply.text.split('\n')[0]).toMatch(/^Заказы 1–20 из \d+$/);
    expect(reply.text.match(/Заказ № \d{10}/g)).toHaveLength(20);
    expect(reply.text.length).toBeLessThanOrEqual(4096);
    expect(h.portal.requests.at(-1)).toMatch(/limit=20&offset=0$/);
  });

  it('renders the order with 60 positions, opened at once, whole in one rich message', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(user, '/order 0007300321');
    expect(reply.rich).toBeDefined();
    expect(reply.text.split('\n').filter((line) => /^\d+ \| \d+ \| /.test(line))).toHaveLength(60);
    expect(reply.buttons.map((button) => button.text)).not.toContain('▶');
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('renders a page of 20 specifications', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(user, '/spec material труба');
    expect(reply.text.split('\n')[0]).toMatch(/^Specifications 1–20 of \d+$/);
    expect(h.api.failedCalls()).toEqual([]);
  });
});

describe('when Telegram refuses a call', () => {
  it('logs it, and the next update is served', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    h.api.failNext('sendMessage', { error_code: 400, description: 'Bad Request: something unexpected' }, { chatId: user.id });
    h.api.sendText({ from: user, text: '/order status production' });
    await h.settle();
    expect(h.logs.some((line) => line.msg === 'update failed')).toBe(true);
    expect((await h.api.nextBotMessage(user.id)).text).toContain('Something went wrong');
    expect((await h.ask(user, '/order status production')).text).toMatch(/^Orders 1–\d+ of \d+/);
  });
});
