import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage } from '../support/bot-api/index.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Issue 30, "statuses by name": by code, by the portal's text (learned from the records found and
// kept in the store), by the operator's names (STATUS_NAMES_FILE); unknown ones get buttons.

const labels = (message: BotMessage | undefined) => message?.buttons.map((button) => button.text) ?? [];

const runs: Harness[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.close();
});
const start = async (env: Record<string, string> = {}) => {
  const h = await startHarness({ env });
  runs.push(h);
  return h;
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'status-names-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAMES_YAML = `
types:
  ZSD_DOG:
    ru: Договор
    en: Contract
    statuses:
      "60": { ru: Подписан, en: Signed }
statuses:
  "10": { ru: Черновик, en: Draft }
orders:
  shipment_ready: { ru: Готов к отгрузке, en: Ready to ship }
`;

describe('an order status by the text the portal writes', () => {
  it('is learned from the records found, kept across a restart, and found in any case (ru and en)', async () => {
    const h = await start();
    const ru = h.api.createUser({ language_code: 'ru' });
    // Nothing seen yet: no status is known, and the bot says how to give one.
    expect((await h.ask(ru, '/order status')).text).toBe(
      'Я ещё не знаю статусов: узнаю их из найденных записей. Укажите код, например /order status production или /spec status 20.',
    );
    await h.ask(ru, '/order 0007300100');
    await h.ask(ru, '/order 0007300134');
    await h.restart();
    const found = await h.ask(ru, '/order статус производство');
    expect(found.text.split('\n').slice(0, 2)).toEqual(['Заказы 1–5 из 21', 'Поиск: статус «production»']);
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?STATUS=production&limit=5&offset=0');
    const en = h.api.createUser({ language_code: 'en' });
    await h.ask(en, '/order status ОЦЕНКА ПРОИЗВОДСТВА');
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?STATUS=production_evaluation&limit=5&offset=0');
  });

  it('offers the known statuses as buttons after /order status alone, for an unknown name, and when a status finds nothing', async () => {
    const h = await start();
    const ru = h.api.createUser({ language_code: 'ru' });
    await h.ask(ru, '/order status production_evaluation');
    await h.ask(ru, '/order 0007300100');
    const choice = await h.ask(ru, '/order status');
    expect(choice.text).toBe('Выберите статус:');
    expect(labels(choice)).toEqual(['Производство · production', 'Оценка производства · production_evaluation']);
    const before = h.portal.requests.length;
    const unknown = await h.ask(ru, '/order статус отгружен');
    expect(unknown.text).toBe('Не знаю статус «отгружен». Известные статусы — на кнопках:');
    expect(labels(unknown)).toEqual(labels(choice));
    expect(h.portal.requests.length).toBe(before);
    const results = h.api.nextBotMessage(ru.id, { after: unknown.message_id });
    await h.press(ru, unknown, h.button(unknown, 'Производство · production'));
    expect((await results).text.split('\n')[0]).toBe('Заказы 1–5 из 21');
    const en = h.api.createUser({ language_code: 'en' });
    const nothing = await h.ask(en, '/order status shipped');
    expect(nothing.text).toContain('No orders found.');
    expect(nothing.text).toContain('The known statuses are on the buttons.');
    expect(labels(nothing)).toEqual(['Производство · production', 'Оценка производства · production_evaluation']);
  });
});

describe('STATUS_NAMES_FILE', () => {
  it('names specification statuses and types beside their codes, in the user’s language, and only those it names', async () => {
    const file = join(dir, 'names.yaml');
    writeFileSync(file, NAMES_YAML);
    const h = await start({ STATUS_NAMES_FILE: file });
    const ru = h.api.createUser({ language_code: 'ru' });
    const list = await h.ask(ru, '/spec ДП-77/2026');
    expect(list.text).toContain('Статус: 60 (Подписан), тип ZSD_DOG (Договор)');
    expect(list.text).toContain('Статус: 30, тип ZSDZNM');
    const en = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(en, '/spec ДП-77/2026')).text).toContain('Status: 60 (Signed), type ZSD_DOG (Contract)');
  });

  it('maps a name in either language to its code, and offers the named codes as buttons', async () => {
    const file = join(dir, 'names.yml');
    writeFileSync(file, NAMES_YAML);
    const h = await start({ STATUS_NAMES_FILE: file });
    const en = h.api.createUser({ language_code: 'en' });
    await h.ask(en, '/spec status signed');
    expect(h.portal.requests.at(-1)).toBe('/api/lk/specification?STATUS=60&limit=5&offset=0');
    const ru = h.api.createUser({ language_code: 'ru' });
    await h.ask(ru, '/spec статус черновик');
    expect(h.portal.requests.at(-1)).toBe('/api/lk/specification?STATUS=10&limit=5&offset=0');
    await h.ask(ru, '/spec тип договор');
    expect(h.portal.requests.at(-1)).toBe('/api/lk/specification?STATUS_TYPE=ZSD_DOG&limit=5&offset=0');
    await h.ask(en, '/order status Ready to ship');
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?STATUS=shipment_ready&limit=5&offset=0');
    // The codes named, and those seen in the records found (20, 50 …), in the order of their codes.
    const choice = await h.ask(ru, '/spec status');
    expect(labels(choice)[0]).toBe('Черновик · 10');
    expect(labels(choice)).toContain('Подписан · 60');
    expect(labels(choice)).toContain('20');
    const english = labels(await h.ask(en, '/spec status'));
    expect(english[0]).toBe('Draft · 10');
    expect(english).toContain('Signed · 60');
  });

  it('shows an order status the portal gives no text for with the operator’s name beside its code', async () => {
    const file = join(dir, 'names.json');
    writeFileSync(file, JSON.stringify({ orders: { shipment_ready: { ru: 'Готов к отгрузке', en: 'Ready to ship' } } }));
    const h = await start({ STATUS_NAMES_FILE: file });
    const en = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(en, '/order date 03.03.2026');
    expect(reply.text).toContain('Status: shipment_ready (Ready to ship)');
  });
});
