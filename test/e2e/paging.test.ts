import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const header = (text: string | undefined) => text?.split('\n')[0];

describe('paging with ◀ ▶', () => {
  it('walks forward to the last page and back to the first, editing one message', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const first = await h.ask(user, '/order status production');
    expect(header(first.text)).toBe('Orders 1–5 of 21');
    // ◀ on the first page and ▶ on the last are there, disabled (Bot API 10.3).
    const pager = (message: typeof first) => message.buttons.filter((b) => /[◀▶/]/.test(b.text)).map((b) => ('disabled' in b ? `(${b.text})` : b.text));
    expect(pager(first)).toEqual(['(◀)', '1/5', '▶']);

    let message = first;
    const seen = [header(first.text)];
    for (let page = 2; page <= 5; page += 1) {
      const { answer, message: edited } = await h.press(user, message, h.button(message, '▶'));
      // Answered at once and silently: the page itself is the answer.
      expect(answer).toMatchObject({ text: undefined, show_alert: false });
      message = edited!;
      seen.push(header(message.text));
    }
    expect(seen).toEqual(['Orders 1–5 of 21', 'Orders 6–10 of 21', 'Orders 11–15 of 21', 'Orders 16–20 of 21', 'Orders 21–21 of 21']);
    expect(pager(message)).toEqual(['◀', '5/5', '(▶)']);
    expect(message.buttons.map((b) => b.text).slice(0, 2)).toEqual(['21', '◀']);
    expect(message.message_id).toBe(first.message_id);
    expect(message.edit_count).toBe(4);

    for (let page = 4; page >= 1; page -= 1) message = (await h.press(user, message, h.button(message, '◀'))).message!;
    expect(header(message.text)).toBe('Orders 1–5 of 21');
    expect(pager(message)).toEqual(['(◀)', '1/5', '▶']);
    expect(h.api.messagesIn(user.id)).toHaveLength(1);
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('pages a Cyrillic query through the store, within 64 bytes of callback data', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const first = await h.ask(user, '/order материал Труба 530х8 К52 ГОСТ');
    const next = h.button(first, '▶');
    expect(next).toMatch(/^p:5:5:@[\w-]+$/);
    expect(Buffer.byteLength(next)).toBeLessThanOrEqual(64);
    const { message } = await h.press(user, first, next);
    expect(header(message?.text)).toMatch(/^Заказы 6–10 из \d+$/);
    expect(h.portal.requests.at(-1)).toContain('POSITION%5BMATERIAL_NAME%5D=%D0%A2%D1%80%D1%83%D0%B1%D0%B0+530');
  });

  it('answers a double tap and treats the unchanged page as a no-op', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const first = await h.ask(user, '/spec ДП-77/2026');
    const next = h.button(first, '▶');
    // Two taps before the first edit arrives: both carry the same, still valid, button.
    const taps = [h.api.pressButton({ from: user, message: first, data: next }), h.api.pressButton({ from: user, message: first, data: next })];
    const answers = await Promise.all(taps.map((id) => h.api.waitForAnswer(id)));
    await h.settle();
    expect(answers).toHaveLength(2);
    expect(header(h.api.message(user.id, first.message_id)?.text)).toBe('Specifications 6–8 of 8');
    expect(h.api.messagesIn(user.id)).toHaveLength(1);
    const refused = h.api.failedCalls().map((call) => (call.response.ok ? '' : call.response.description));
    expect(refused).toEqual([expect.stringContaining('message is not modified')]);
  });

  it('answers the page indicator without calling the portal', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const first = await h.ask(user, '/order status production');
    const before = h.portal.requests.length;
    const { answer } = await h.press(user, first, h.button(first, '1/5'));
    expect(answer).toMatchObject({ show_alert: false });
    expect(h.portal.requests.length).toBe(before);
  });

  it('answers a forged button with "out of date", without calling the portal', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const first = await h.ask(user, '/order status production');
    const before = h.portal.requests.length;
    for (const data of ['p:5:5:@doesnotexist', 'p:7:5:o0=1', 'x', 'p:5:5:o9=1']) {
      const { answer, message } = await h.press(user, first, data, true);
      expect(answer).toMatchObject({ show_alert: true, text: expect.stringContaining('out of date') });
      expect(message?.edit_count).toBe(0);
    }
    expect(h.portal.requests.length).toBe(before);
  });

  it('falls back to the last page when the data shrank under a button', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const first = await h.ask(user, '/order status production');
    const { message } = await h.press(user, first, 'p:5:100:o3=production', true);
    expect(header(message?.text)).toBe('Orders 21–21 of 21');
  });
});
