import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('settings', () => {
  it('/lang switches a user to English whatever Telegram says, and it lasts', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const choice = await h.ask(user, '/lang');
    expect(choice.buttons.map((b) => b.text)).toEqual(['Русский', 'English']);
    const { answer, message } = await h.press(user, choice, h.button(choice, 'English'));
    expect(answer?.text).toContain('English');
    expect(message?.text).toContain('English');
    expect((await h.ask(user, '/order 0007300100')).text).toContain('Order No. 0007300100');
    await h.restart();
    expect((await h.ask(user, '/order 0007300100')).text).toContain('Order No. 0007300100');
  });

  it('/pagesize changes how many records a message shows', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const choice = await h.ask(user, '/pagesize');
    expect(choice.buttons.map((b) => b.text)).toEqual(['✓ 5', '10', '20']);
    await h.press(user, choice, h.button(choice, '10'));
    const list = await h.ask(user, '/order status production');
    expect(list.text.split('\n')[0]).toBe('Orders 1–10 of 21');
    expect(h.portal.requests.at(-1)).toMatch(/limit=10&offset=0$/);
    const settings = await h.ask(user, '/settings');
    expect(settings.text).toContain('English');
    expect(settings.text).toContain('10');
  });

  it("lets a group's admin set the group's language, and only an admin", async () => {
    const admin = h.api.createUser({ language_code: 'en' });
    const member = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    h.api.sendText({ from: admin, chat: group, text: 'hi' });
    h.api.setMemberStatus(group.id, admin.id, 'administrator');

    const refused = await h.ask(member, '/lang@order_lookup_bot', group);
    expect(refused.text).toContain('admin');
    expect(refused.buttons).toEqual([]);

    const choice = await h.ask(admin, '/lang@order_lookup_bot', group);
    const byMember = await h.press(member, choice, h.button(choice, 'Русский'));
    expect(byMember.answer).toMatchObject({ show_alert: true, text: expect.stringContaining('admin') });
    expect(byMember.message?.edit_count).toBe(0);

    await h.press(admin, choice, h.button(choice, 'Русский'));
    const reply = await h.ask(member, '/order@order_lookup_bot 0007300100', group);
    expect(reply.text).toContain('Заказ № 0007300100');
    expect((await h.ask(member, '/order 0007300100')).text).toContain('Order No. 0007300100');
  });
});

describe('command menus', () => {
  it('sets Russian and English menus for private chats and groups', () => {
    const ru = h.api.commands({ scope: { type: 'all_private_chats' }, languageCode: 'ru' });
    const en = h.api.commands({ scope: { type: 'all_group_chats' }, languageCode: 'en' });
    expect(ru?.map((command) => command.command)).toEqual(['order', 'spec', 'watch', 'digest', 'export', 'settings', 'timezone', 'lang', 'pagesize', 'help', 'start']);
    expect(en?.map((command) => command.command)).toEqual(['order', 'spec', 'watch', 'digest', 'export', 'settings', 'timezone', 'lang', 'pagesize', 'help', 'autolookup', 'answers']);
    expect(ru?.[0]?.description).not.toBe(en?.[0]?.description);
  });
});
