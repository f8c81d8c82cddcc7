import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

// Records as HTML in the results page's message: on a Bot API server without rich messages (10.0),
// as before issue 31. As rich messages of their own: rich-records.test.ts.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ botApiVersion: '10.0' });
});
afterAll(() => h.close());

const header = (text: string | undefined) => text?.split('\n')[0];
const labels = (message: { buttons: Array<{ text: string }> } | undefined) => message?.buttons.map((button) => button.text) ?? [];

describe('opening a record from a results page', () => {
  it('numbers the records, opens one in the same message, and Back returns to the same page', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/order status production');
    expect(labels(list).slice(0, 5)).toEqual(['1', '2', '3', '4', '5']);
    const second = await h.press(user, list, h.button(list, '▶'));
    expect(labels(second.message).slice(0, 5)).toEqual(['6', '7', '8', '9', '10']);

    const opened = await h.press(user, second.message!, h.button(second.message, '7'));
    expect(opened.message?.message_id).toBe(list.message_id);
    expect(opened.message?.text).toMatch(/^Order No\. \d{10}/);
    expect(opened.message?.text).toContain('Positions');
    expect(labels(opened.message)).toContain('◀ Back to list');

    const back = await h.press(user, opened.message!, h.button(opened.message, '◀ Back to list'));
    expect(header(back.message?.text)).toBe('Orders 6–10 of 21');
    expect(h.api.messagesIn(user.id)).toHaveLength(1);
  });

  it('shows every position of an order with code, name, quantity, price and currency', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const message = await h.ask(user, '/order 0007300100');
    const text = message.text;
    expect(text).toContain('Заказ № 0007300100');
    expect(text).toContain('000010');
    expect(text).toContain('Труба 530х8 К52 ГОСТ 20295-85');
    expect(text).toMatch(/RUB/);
  });

  it('pages through the 60 positions of a long order inside the record', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    let message: Awaited<ReturnType<typeof h.ask>> | undefined = await h.ask(user, '/order 0007300321');
    const pager = labels(message).find((label) => /^1\/\d+$/.test(label));
    expect(pager).toMatch(/^1\/[2-9]$/);
    const parts = Number(pager!.split('/')[1]);
    expect(parts).toBeGreaterThan(1);
    const seen = new Set<string>();
    for (let part = 1; part <= parts; part += 1) {
      for (const match of message!.text.matchAll(/\b(\d{6})\b/g)) seen.add(match[1]!);
      if (part < parts) message = (await h.press(user, message!, h.button(message, '▶'))).message;
    }
    expect(labels(message)).toContain(`${parts}/${parts}`);
    expect([...seen].filter((number) => /^0\d{5}$/.test(number)).length).toBeGreaterThanOrEqual(60);
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('opens a specification with consignees, documents, requests and planned dates', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const list = await h.ask(user, '/spec ДП-77/2026');
    const { message } = await h.press(user, list, h.button(list, '3'));
    const text = message?.text ?? '';
    expect(text).toContain('Спецификация № 6');
    expect(text).toContain('ООО «СпецСтрой & Ко»');
    expect(text).toContain('УПД-00316');
    expect(text).toContain('0007300372');
    expect(text).toContain('не запланировано');
  });
});

describe('when the data moved under a record button', () => {
  it('opens the record the button was made for, wherever it now stands on the page', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const list = await h.ask(user, '/order status production');
    const third = h.button(list, '3');
    const expected = (await h.press(user, list, third)).message?.text.split('\n')[0];
    const back = await h.ask(user, '/order status production');
    // The same record, as if it had moved from place 3 to place 1.
    const moved = third.replace(/^r:5:0:2:/, 'r:5:0:0:');
    const { message } = await h.press(user, back, moved, true);
    expect(message?.text.split('\n')[0]).toBe(expected);
    expect(expected).toMatch(/^Заказ № \d{10}/);
  });

  it('says the record is gone when the page no longer has it, never shows another', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const list = await h.ask(user, '/order status production');
    const gone = h.button(list, '2').replace(/:[\w-]{6}:o/, ':ZZZZZZ:o');
    const { message } = await h.press(user, list, gone, true);
    expect(message?.text).not.toMatch(/Заказ №/);
    expect(message?.buttons.map((button) => button.text)).toEqual(['◀ К списку']);
  });
});

describe('cross-links', () => {
  it('opens a related production request of a specification as a new message', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/spec ДП-77/2026');
    const { message: spec } = await h.press(user, list, h.button(list, '3'));
    const reply = h.api.nextBotMessage(user.id);
    await h.press(user, spec!, h.button(spec, 'Request 0007300372'));
    const order = await reply;
    expect(order.message_id).not.toBe(list.message_id);
    // The one order found opens at once, with no list to go back to.
    expect(header(order.text)).toMatch(/^Order No\. 0007300372 dated /);
    expect(labels(order)).not.toContain('◀ Back to list');
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?SAP_ID=0007300372&limit=5&offset=0');
  });

  it('finds orders and specifications with a material of the record, chosen from its materials', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    // The one order found opens at once, as a rich message.
    const order = await h.ask(user, '/order 0007300100');
    // One button each, not two per position.
    expect(labels(order).filter((label) => /^📦|^📄/.test(label))).toEqual(['📦 Orders with a material…', '📄 Specifications with a material…']);
    const { message: orders } = await h.press(user, order!, h.button(order, '📦 Orders with a material…'));
    const reply = h.api.nextBotMessage(user.id);
    await h.press(user, orders!, h.button(orders, '📦 10012345 · Труба 530х8 К52 ГОСТ 20295-85'));
    expect(header((await reply).text)).toMatch(/^Orders 1–5 of \d+$/);
    expect(h.portal.requests.at(-1)).toMatch(/^\/api\/lk\/order\?POSITION%5BMATERIAL_SAP_ID%5D=\d+&limit=5&offset=0$/);
    const { message: back } = await h.press(user, orders!, h.button(orders, '◀ Back to the record'));
    const { message: specs } = await h.press(user, back!, h.button(back, '📄 Specifications with a material…'));
    const found = h.api.nextBotMessage(user.id);
    await h.press(user, specs!, h.button(specs, '📄 10012345 · Труба 530х8 К52 ГОСТ 20295-85'));
    expect(header((await found).text)).toMatch(/^Specifications 1–\d+ of \d+$/);
  });

  it('says so when the portal does not return the target', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/order 0007300100');
    const reply = h.api.nextBotMessage(user.id);
    await h.press(user, list, 'x:o0=0009999999', true);
    const text = (await reply).text;
    expect(text).toContain('No orders found');
    expect(text).toContain('0009999999');
  });
});

describe('refresh', () => {
  it('re-runs the query and shows when it was fetched', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    h.clock.now = new Date('2026-11-23T11:05:00Z');
    const list = await h.ask(user, '/order status production');
    expect(list.text).toContain('updated 14:05');
    const before = h.portal.requests.length;
    h.clock.now = new Date('2026-11-23T11:47:00Z');
    const { message } = await h.press(user, list, h.button(list, '🔄 Refresh'));
    expect(message?.text).toContain('updated 14:47');
    expect(header(message?.text)).toBe(header(list.text));
    expect(h.portal.requests.length).toBe(before + 1);
  });

  it('refreshes an open record in place', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    h.clock.now = new Date('2026-11-23T11:05:00Z');
    const record = await h.ask(user, '/order 0007300100');
    h.clock.now = new Date('2026-11-23T12:00:00Z');
    const { message } = await h.press(user, record, h.button(record, '🔄 Refresh'));
    expect(message?.text).toContain('updated 15:00');
    expect(message?.text).toContain('Order No. 0007300100');
    expect(message?.message_id).toBe(record.message_id);
    expect(labels(message)).not.toContain('◀ Back to list');
  });

  it('says the record is gone when the page no longer has it, with a way back', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/order 0007300100');
    const { answer, message } = await h.press(user, list, 'r:5:0:4:0:AAAAAA:o0=0007300100', true);
    expect(answer).toMatchObject({ text: undefined, show_alert: false });
    expect(message?.text).toBe('This record is no longer in the portal’s results for this search: it was changed or removed. Please send the command again.');
    expect(labels(message)).toEqual(['◀ Back to list']);
    // Back shows the page: the one order found, opened at once, lives in its own message.
    const back = await h.press(user, message!, h.button(message, '◀ Back to list'));
    expect(header(back.message?.text)).toBe('Orders 1–1 of 1');
  });
});
