import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
const ALLOWED_USER = 500_001;
const ALLOWED_GROUP = -100_500_002;
beforeAll(async () => {
  h = await startHarness({ env: { ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: String(ALLOWED_USER), ALLOWED_CHAT_IDS: String(ALLOWED_GROUP) } });
});
afterAll(() => h.close());

describe('access lists', () => {
  it('serves a listed user', async () => {
    const user = h.api.createUser({ id: ALLOWED_USER, language_code: 'en' });
    expect((await h.ask(user, '/order 0007300100')).text).toContain('Orders 1–1 of 1');
  });

  it('refuses anyone else with their id, and asks the portal nothing', async () => {
    const stranger = h.api.createUser({ id: 777_000_111, language_code: 'ru' });
    const before = h.portal.requests.length;
    const reply = await h.ask(stranger, '/order 0007300100');
    expect(reply.text).toContain('777000111');
    expect(reply.text).toContain('Нет доступа');
    expect(h.portal.requests.length).toBe(before);
  });

  it('serves anyone in a listed group', async () => {
    const member = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ id: ALLOWED_GROUP, type: 'supergroup' });
    expect(group.id).toBe(ALLOWED_GROUP);
    const reply = await h.ask(member, '/spec ДП-77/2026', group);
    expect(reply.text).toContain('Specifications 1–5 of 8');
  });

  it('refuses a stranger in another group, naming both ids', async () => {
    const stranger = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    const reply = await h.ask(stranger, '/order@order_lookup_bot 0007300100', group);
    expect(reply.text).toContain(String(stranger.id));
    expect(reply.text).toContain(String(group.id));
  });

  it('refuses a button press from a stranger with an alert, and asks the portal nothing', async () => {
    const user = h.api.createUser({ id: ALLOWED_USER, language_code: 'en' });
    const results = await h.ask(user, '/order status production');
    const stranger = h.api.createUser({ language_code: 'en' });
    const before = h.portal.requests.length;
    const { answer, message } = await h.press(stranger, results, h.button(results, '▶'));
    expect(answer).toMatchObject({ show_alert: true, text: expect.stringContaining(String(stranger.id)) });
    expect(message?.edit_count).toBe(0);
    expect(h.portal.requests.length).toBe(before);
  });
});
