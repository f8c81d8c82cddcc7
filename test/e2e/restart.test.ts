import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('buttons after a restart of the bot', () => {
  it('keep working, for queries inside the button and in the store alike', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const stored = await h.ask(user, '/spec ДП-77/2026');
    const inline = await h.ask(user, '/order status production');
    expect(h.button(stored, '▶')).toMatch(/@/);
    expect(h.button(inline, '▶')).not.toMatch(/@/);
    await h.restart();
    const a = await h.press(user, stored, h.button(stored, '▶'));
    expect(a.message?.text.split('\n')[0]).toBe('Спецификации 6–8 из 8');
    const b = await h.press(user, inline, h.button(inline, '▶'));
    expect(b.message?.text.split('\n')[0]).toBe('Заказы 6–10 из 21');
    const record = await h.press(user, a.message!, h.button(a.message, '6'));
    expect(record.message?.text).toContain('Спецификация №');
  });

  it('that the store no longer knows say the list is out of date', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/spec ДП-77/2026');
    const { answer } = await h.press(user, list, 'p:5:5:@AAAAAAAAAAAAAAAA', true);
    expect(answer).toMatchObject({ show_alert: true, text: expect.stringContaining('send the command again') });
  });
});
