import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator } from '../../../src/i18n.ts';
import type { Locale } from '../../../src/i18n.ts';
import type { OrderQuery, SpecificationQuery } from '../../../src/query.ts';
import { renderInlineNotice } from '../../../src/bot/views/inline-notice.ts';
import type { InlineItem } from '../../../src/bot/views/common/inline-item.ts';
import { renderOrderInline } from '../../../src/bot/views/order/inline.ts';
import { renderSpecInline } from '../../../src/bot/views/specification/inline.ts';
import { renderOrderCard } from '../../../src/bot/views/order/card.ts';
import { renderSpecCard } from '../../../src/bot/views/specification/card.ts';
import { makeOrder, makeSpecification } from '../../fixtures/portal-records.ts';
import { hugeOrder, hugeSpecification, longText } from '../../fixtures/worst-case.ts';
import { formatMessageText } from '../../support/bot-api/text.ts';

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const ru = kit('ru');
const en = kit('en');
const specQuery: SpecificationQuery = { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' };

/** What Telegram would store: throws on malformed HTML or a text over 4096 characters. */
const sendable = (html: string) => formatMessageText({ text: html, parseMode: 'HTML', entities: undefined }, { strictHtmlAmpersand: true });

/** Telegram's rules for a result: an ASCII id of at most 64 bytes, a non-empty title, a message it accepts. */
const expectValid = (item: InlineItem) => {
  expect(item.id).toMatch(/^[\x21-\x7e]+$/);
  expect(Buffer.byteLength(item.id)).toBeLessThanOrEqual(64);
  expect(item.title.trim()).not.toBe('');
  expect(item.title).not.toContain('\n');
  expect(item.description).not.toContain('\n');
  expect(() => sendable(item.text)).not.toThrow();
};

describe('an order as an inline result', () => {
  test('Russian: number and status over date, total and positions; the compact card as the message', () => {
    const item = renderOrderInline(makeOrder(), ru.t, ru.fmt);
    expect(item).toEqual({
      id: 'o:0007300100',
      title: 'Заказ № 0007300100 · Производство',
      description: '15.03.2026 · Сумма: 1\u00a0234\u00a0567,89 RUB · 2 позиции',
      text: renderOrderCard(makeOrder(), ru.t, ru.fmt),
    });
    expectValid(item);
  });

  test('English; the weight stands in for a missing total', () => {
    expect(renderOrderInline(makeOrder(), en.t, en.fmt)).toMatchObject({
      title: 'Order No. 0007300100 · Производство',
      description: '15 Mar 2026 · Total: 1,234,567.89 RUB · 2 positions',
    });
    expect(renderOrderInline(makeOrder({ POSITION_SUM: null, DATE_ORDER: null, POSITION: null }), en.t, en.fmt)).toMatchObject({
      description: 'Weight: 12.345\u00a0t',
    });
  });

  test('title and description are plain text: portal text appears as typed, never escaped', () => {
    const order = makeOrder({ SAP_ID: '<b>1</b>', STATUS_TEXT: 'Оценка & "проверка"' });
    const item = renderOrderInline(order, ru.t, ru.fmt);
    expect(item.title).toBe('Заказ № <b>1</b> · Оценка & "проверка"');
    expect(sendable(item.text).text).toMatch(/^Заказ № <b>1<\/b> от 15\.03\.2026\n/);
    expectValid(item);
  });
});

describe('a specification as an inline result', () => {
  test('Russian: number and status over contract, validity and positions', () => {
    const item = renderSpecInline(makeSpecification(), ru.t, ru.fmt);
    expect(item).toEqual({
      id: 's:0040001234',
      title: 'Спецификация № 12 · Статус: 20, тип ZSD_DOG',
      description: 'Договор № ДП-77/2026 от 01.02.2026 · Действует с 01.03.2026 по 31.12.2026 · 2 позиции',
      text: renderSpecCard(makeSpecification(), ru.t, ru.fmt),
    });
    expectValid(item);
  });

  test('English', () => {
    expect(renderSpecInline(makeSpecification({ DATE_ACTIVE_TO: '9999-12-31 00:00:00' }), en.t, en.fmt)).toMatchObject({
      title: 'Specification No. 12 · Status: 20, type ZSD_DOG',
      description: 'Contract No. ДП-77/2026 dated 1 Feb 2026 · Valid from 1 Mar 2026, open-ended · 2 positions',
    });
  });
});

describe('ids', () => {
  test('stable, and different for different records and resources', () => {
    const again = renderOrderInline(makeOrder(), ru.t, ru.fmt);
    expect(renderOrderInline(makeOrder(), en.t, en.fmt).id).toBe(again.id);
    expect(renderOrderInline(makeOrder({ SAP_ID: '0007300101' }), ru.t, ru.fmt).id).toBe('o:0007300101');
    expect(renderSpecInline(makeSpecification({ SAP_ID: '0007300100' }), ru.t, ru.fmt).id).toBe('s:0007300100');
  });

  test('a long or non-ASCII key goes by its hash, still the same each time', () => {
    const cyrillic = renderOrderInline(makeOrder({ SAP_ID: 'Заказ-1' }), ru.t, ru.fmt);
    expect(cyrillic.id).toMatch(/^o#[\w-]{43}$/);
    expect(renderOrderInline(makeOrder({ SAP_ID: 'Заказ-1' }), ru.t, ru.fmt).id).toBe(cyrillic.id);
    expect(renderOrderInline(makeOrder({ SAP_ID: 'Заказ-2' }), ru.t, ru.fmt).id).not.toBe(cyrillic.id);
    expect(renderOrderInline(makeOrder({ SAP_ID: '9'.repeat(61) }), ru.t, ru.fmt).id).toMatch(/^o#/);
    expect(renderSpecInline(makeSpecification({ SAP_ID: '' }), ru.t, ru.fmt).id).toMatch(/^s#/);
  });
});

test.each(['ru', 'en'] as const)('%s: records no real portal sends still give valid results', (locale) => {
  const { t, fmt } = kit(locale);
  for (const item of [
    renderOrderInline(hugeOrder(1), t, fmt),
    renderSpecInline(hugeSpecification(1), t, fmt),
    renderOrderInline(makeOrder({ STATUS_TEXT: longText(5000) }), t, fmt),
  ]) {
    expectValid(item);
    expect(item.title.length).toBeLessThanOrEqual(128);
    expect(item.description.length).toBeLessThanOrEqual(256);
  }
});

describe('notices', () => {
  const query: SpecificationQuery = { ...specQuery, value: 'ДП-77/2026 <x> & y' };

  test('Russian', () => {
    expect(renderInlineNotice('usage', ru.t)).toEqual({
      id: 'notice:usage',
      title: 'Введите номер заказа или договора',
      description: 'Например: 0007300100, spec ДП-77/2026, material труба 530',
      text: '<b>Введите номер заказа или договора</b>\nНапример: 0007300100, spec ДП-77/2026, material труба 530',
    });
    expect(renderInlineNotice('notAllowed', ru.t, { id: 123456789 })).toEqual({
      id: 'notice:notAllowed',
      title: 'Нет доступа',
      description: 'Передайте администратору ваш Telegram ID: 123456789',
      text: '<b>Нет доступа</b>\nПередайте администратору ваш Telegram ID: 123456789',
    });
    expect(renderInlineNotice('nothingFound', ru.t, { query })).toEqual({
      id: 'notice:nothingFound',
      title: 'Ничего не найдено',
      description: 'Поиск: номер договора «ДП-77/2026 <x> & y»',
      text: '<b>Ничего не найдено</b>\nПоиск: номер договора «ДП-77/2026 &lt;x&gt; &amp; y»',
    });
    expect(renderInlineNotice('failed', ru.t)).toEqual({
      id: 'notice:failed',
      title: 'Портал сейчас не отвечает',
      description: 'Попробуйте ещё раз через минуту.',
      text: '<b>Портал сейчас не отвечает</b>\nПопробуйте ещё раз через минуту.',
    });
  });

  test('English', () => {
    expect(renderInlineNotice('usage', en.t)).toMatchObject({
      title: 'Type an order or contract number',
      description: 'For example: 0007300100, spec ДП-77/2026, material труба 530',
    });
    expect(renderInlineNotice('notAllowed', en.t, { id: 123456789 })).toMatchObject({
      title: 'No access',
      description: 'Send your Telegram ID to the administrator: 123456789',
    });
    expect(renderInlineNotice('nothingFound', en.t, { query })).toMatchObject({
      title: 'Nothing found',
      description: 'Search: contract no. “ДП-77/2026 <x> & y”',
    });
    expect(renderInlineNotice('failed', en.t)).toMatchObject({ title: 'The portal is not answering', description: 'Please try again in a minute.' });
  });

  test('a date filter reads as a local date with a formatter', () => {
    const byDate: OrderQuery = { resource: 'order', filter: 'DATE_ORDER', value: '2026-03-15' };
    expect(renderInlineNotice('nothingFound', ru.t, { query: byDate }, ru.fmt).description).toBe('Поиск: дата заказа «15.03.2026»');
  });

  test.each(['ru', 'en'] as const)('%s: every notice is a valid result whose message shows what its title and description say', (locale) => {
    const { t } = kit(locale);
    for (const kind of ['usage', 'notAllowed', 'nothingFound', 'failed'] as const) {
      const item = renderInlineNotice(kind, t, { id: 42, query });
      expectValid(item);
      expect(sendable(item.text).text).toBe(`${item.title}\n${item.description}`);
    }
  });
});
