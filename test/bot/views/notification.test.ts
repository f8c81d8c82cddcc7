import { describe, expect, test } from 'vitest';
import type { InlineKeyboardButton } from '../../../src/telegram/telegraf/core.ts';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator, type Locale } from '../../../src/i18n.ts';
import type { Query } from '../../../src/query.ts';
import type { ChangeSet, RecordChange } from '../../../src/watch/changes.ts';
import { diffSnapshots } from '../../../src/watch/diff.ts';
import { snapshotOf } from '../../../src/watch/snapshot.ts';
import { unpackCallback } from '../../../src/bot/callback-data/codec.ts';
import { renderNotification } from '../../../src/bot/views/notification.ts';
import { makeOrder, makeSpecification, orderPosition, specificationPosition } from '../../fixtures/portal-records.ts';
import { formatMessageText } from '../../support/bot-api/text.ts';

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const ru = kit('ru');
const en = kit('en');
const FETCHED_AT = new Date('2026-03-15T11:05:00Z'); // 14:05 in Moscow

/** What Telegram would store: throws on malformed HTML or a text over 4096 characters. */
const sendable = (html: string) => formatMessageText({ text: html, parseMode: 'HTML', entities: undefined }, { strictHtmlAmpersand: true });

const data = (button: InlineKeyboardButton): string => ('callback_data' in button ? button.callback_data : '');
const buttons = (keyboard: InlineKeyboardButton[][]) => keyboard.map((row) => row.map((button) => [button.text, data(button)]));

const orderQuery: Query = { resource: 'order', filter: 'SAP_ID', value: '0007300100' };
const contractQuery: Query = { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'DP-77/2026' };

/** The rows every notification of watch `id` has above its last: snooze, and the two option switches. */
const optionRows = (id: number, locale: Locale = 'ru') =>
  locale === 'ru'
    ? [
        [['⏸ 1 день', `ds:${id}:d`], ['⏸ 1 неделя', `ds:${id}:w`]],
        [['Только статус', `dm:${id}:s`], ['Только в сводке', `dd:${id}:d`]],
      ]
    : [
        [['⏸ 1 day', `ds:${id}:d`], ['⏸ 1 week', `ds:${id}:w`]],
        [['Status only', `dm:${id}:s`], ['In the digest only', `dd:${id}:d`]],
      ];

const statusChange = (sapId: string): RecordChange => ({
  sapId,
  kind: 'changed',
  title: { sapId, date: '2026-03-15' },
  changes: [{ kind: 'field', field: 'status', from: 'Производство', to: 'Отгружен' }],
});

describe('a notification', () => {
  test('Russian: the watched query, when, each record after a blank line; open and stop buttons', () => {
    const changeSet: ChangeSet = { resource: 'order', foundAt: 0, changes: [statusChange('0007300100')] };
    const view = renderNotification(changeSet, { query: orderQuery }, 42, ru.t, ru.fmt, FETCHED_AT);
    expect(view.text).toBe(
      [
        '🔔 Изменения: заказы, номер SAP «0007300100»',
        '<i>обновлено <tg-time unix="1773572700" format="t">14:05</tg-time></i>',
        '',
        '🔔 <b>Заказ № 0007300100</b> от 15.03.2026',
        'Статус: Производство → Отгружен',
      ].join('\n'),
    );
    expect(buttons(view.keyboard)).toEqual([[['Заказ 0007300100', 'x:o0=0007300100']], ...optionRows(42), [['🔕 Не следить', 'u:42']]]);
  });

  test('English, for specifications found by a diff: entered, changed and left records', () => {
    const before = snapshotOf({
      resource: 'specification',
      items: [makeSpecification(), makeSpecification({ SAP_ID: '0040001235', SPECIFICATION_NUMBER: '13' })],
    });
    const after = snapshotOf({
      resource: 'specification',
      items: [
        makeSpecification({ SAP_ID: '0040001236', SPECIFICATION_NUMBER: '14' }),
        makeSpecification({ DOCUMENT_LIST: [{ ID: 5, NUMBER: 'АКТ-555', DATE: '2026-11-20 00:00:00' }] }),
      ],
    });
    const changeSet: ChangeSet = { resource: 'specification', foundAt: 0, changes: diffSnapshots(before, after) };
    const view = renderNotification(changeSet, { query: contractQuery }, 7, en.t, en.fmt);
    expect(view.text).toBe(
      [
        '🔔 Changes: specifications, contract no. “DP-77/2026”',
        '',
        '🔔 <b>Specification No. 14</b> · contract ДП-77/2026',
        'New record for this query',
        '',
        '🔔 <b>Specification No. 12</b> · contract ДП-77/2026',
        'New document: АКТ-555 dated 20 Nov 2026',
        '',
        '🔔 <b>Specification No. 13</b> · contract ДП-77/2026',
        'No longer matches the query',
      ].join('\n'),
    );
    expect(buttons(view.keyboard)).toEqual([
      [
        ['Specification No. 14', 'x:s1=14'],
        ['Specification No. 12', 'x:s1=12'],
      ],
      [['Specification No. 13', 'x:s1=13']],
      ...optionRows(7, 'en'),
      [['🔕 Stop watching', 'u:7']],
    ]);
    expect(sendable(view.text).text).toContain('New document: АКТ-555 dated 20 Nov 2026');
  });

  test("the watch's options as they are now: its buttons carry the watch's id, not the notification's", () => {
    const changeSet: ChangeSet = { resource: 'order', foundAt: 0, changes: [statusChange('0007300100')] };
    // What the sender passes: the notification itself (its own id), with the watch's options.
    const notification = { id: 7, watchId: 42, statusOnly: true as const, digestOnly: true as const };
    const view = renderNotification(changeSet, { query: orderQuery }, 42, en.t, en.fmt, undefined, notification);
    expect(buttons(view.keyboard).slice(1)).toEqual([
      [['⏸ 1 day', 'ds:42:d'], ['⏸ 1 week', 'ds:42:w']],
      [['All changes', 'dm:42:a'], ['Instantly', 'dd:42:i']],
      [['🔕 Stop watching', 'u:42']],
    ]);
  });

  test('a specification number that cannot travel in a button gets no button', () => {
    const change = (number: string): RecordChange => ({ sapId: '0040001234', kind: 'entered', title: { number, contract: null, contractDate: null }, changes: [] });
    const changeSet: ChangeSet = { resource: 'specification', foundAt: 0, changes: [change('№ 12/Б'), change('X'.repeat(41)), change('  ')] };
    const view = renderNotification(changeSet, { query: contractQuery }, 7, ru.t, ru.fmt);
    expect(buttons(view.keyboard)).toEqual([...optionRows(7), [['🔕 Не следить', 'u:7']]]);
  });

  test('portal text stays well-formed HTML', () => {
    const before = snapshotOf({ resource: 'order', items: [makeOrder()] });
    const after = snapshotOf({ resource: 'order', items: [makeOrder({ STATUS_TEXT: '<b>Отгружен & "всё"', POSITION: [orderPosition(3, { MATERIAL_NAME: 'Труба <530> & К52' })] })] });
    const view = renderNotification({ resource: 'order', foundAt: 0, changes: diffSnapshots(before, after) }, { query: orderQuery }, 1, ru.t, ru.fmt);
    const shown = sendable(view.text).text;
    expect(shown).toContain('Статус: Производство → <b>Отгружен & "всё"');
    expect(shown).toContain('Новая позиция 000030: Труба <530> & К52 — 1\u00a0шт');
  });
});

describe('within Telegram\'s limits', () => {
  const manyOrders = (count: number): ChangeSet => {
    const sapIds = Array.from({ length: count }, (_, index) => String(7300100 + index).padStart(10, '0'));
    const items = (status: string) => sapIds.map((sapId) => makeOrder({ SAP_ID: sapId, STATUS_TEXT: status, POSITION_SUM: status === 'A' ? 100 : 200 }));
    const before = snapshotOf({ resource: 'order', items: items('A') });
    const after = snapshotOf({ resource: 'order', items: items('B') });
    return { resource: 'order', foundAt: 0, changes: diffSnapshots(before, after) };
  };
  const materialQuery: Query = { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'truba 530' };

  test('300 changed records: as many as fit, then «… и ещё N записей изменились», buttons to the first five, the query, stop', () => {
    const changeSet = manyOrders(300);
    expect(changeSet.changes).toHaveLength(300);
    const view = renderNotification(changeSet, { query: materialQuery }, 9, ru.t, ru.fmt, FETCHED_AT);
    const stored = sendable(view.text);
    expect(stored.text.length).toBeLessThanOrEqual(4096);
    const shown = view.text.match(/^🔔 <b>Заказ/gm)?.length ?? 0;
    expect(shown).toBeGreaterThan(20);
    expect(shown).toBeLessThan(300);
    expect(view.text.endsWith(`\n\n${ru.t('notification.moreRecords', { count: 300 - shown })}`)).toBe(true);
    expect(view.text).toMatch(/\n\n… и ещё \d+ запис(ь|и|ей) изменил(ась|ись)$/);
    // The last record shown is whole.
    expect(view.text).toContain(`<b>Заказ № ${String(7300100 + shown - 1).padStart(10, '0')}</b> от 15.03.2026\nСтатус: A → B\nСумма: 100,00 → 200,00\n\n…`);

    expect(buttons(view.keyboard)).toEqual([
      [
        ['Заказ 0007300100', 'x:o0=0007300100'],
        ['Заказ 0007300101', 'x:o0=0007300101'],
      ],
      [
        ['Заказ 0007300102', 'x:o0=0007300102'],
        ['Заказ 0007300103', 'x:o0=0007300103'],
      ],
      [['Заказ 0007300104', 'x:o0=0007300104']],
      ...optionRows(9),
      [
        ['🔎 Показать запрос', 'x:o4=truba 530'],
        ['🔕 Не следить', 'u:9'],
      ],
    ]);
    expect(view.keyboard.every((row) => row.length <= 8)).toBe(true);
    expect(view.keyboard.flat().length).toBeLessThanOrEqual(100);
    for (const button of view.keyboard.flat()) expect(unpackCallback(data(button))).toBeDefined();
  });

  test('whatever the records\' lengths, the text with its "more" line stays within 4096 characters', () => {
    for (let extra = 0; extra < 60; extra += 1) {
      const change = (index: number): RecordChange => ({
        ...statusChange(String(7300100 + index).padStart(10, '0')),
        changes: [{ kind: 'field', field: 'status', from: 'Производство', to: `Отгружен ${'x'.repeat(extra)}` }],
      });
      const changeSet: ChangeSet = { resource: 'order', foundAt: 0, changes: Array.from({ length: 300 }, (_, index) => change(index)) };
      const view = renderNotification(changeSet, { query: materialQuery }, 9, ru.t, ru.fmt, FETCHED_AT);
      expect(sendable(view.text).text.length).toBeLessThanOrEqual(4096);
      expect(view.text).toMatch(/\n\n… и ещё \d+ запис(ь|и|ей) изменил(ась|ись)$/);
    }
  });

  test('English: the "N more" line; no query button for a query that does not fit in one', () => {
    const longQuery: Query = { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба 530' };
    const view = renderNotification(manyOrders(300), { query: longQuery }, 9, en.t, en.fmt);
    expect(sendable(view.text).text.length).toBeLessThanOrEqual(4096);
    expect(view.text).toMatch(/\n\n… and \d+ more records changed$/);
    expect(view.keyboard.at(-1)).toEqual([{ text: '🔕 Stop watching', callback_data: 'u:9', style: 'danger' }]);
  });

  test('nothing left out: no "more" line and no query button', () => {
    const view = renderNotification(manyOrders(3), { query: materialQuery }, 9, en.t, en.fmt);
    expect(view.text).not.toContain('more');
    expect(view.keyboard.flat().map((button) => button.text)).toEqual([
      'Order 0007300100',
      'Order 0007300101',
      'Order 0007300102',
      ...optionRows(9, 'en').flat().map(([text]) => text),
      '🔕 Stop watching',
    ]);
  });

  test('one record too long on its own is cut, its remaining changes counted', () => {
    const before = snapshotOf({ resource: 'specification', items: [makeSpecification({ POSITION: [] })] });
    const positions = Array.from({ length: 400 }, (_, index) => specificationPosition(index + 1, { MATERIAL_NAME: `Труба 530х8 К52 ГОСТ 20295-85 № ${index + 1}` }));
    const after = snapshotOf({ resource: 'specification', items: [makeSpecification({ POSITION: positions })] });
    const view = renderNotification({ resource: 'specification', foundAt: 0, changes: diffSnapshots(before, after) }, { query: contractQuery }, 3, ru.t, ru.fmt);
    expect(sendable(view.text).text.length).toBeLessThanOrEqual(4096);
    expect(view.text).toMatch(/^🔔 Изменения: спецификации, номер договора «DP-77\/2026»\n\n🔔 <b>Спецификация № 12<\/b> · договор ДП-77\/2026\nНовая позиция 000010: /);
    expect(view.text).toMatch(/\n… и ещё \d+ изменени(е|я|й)$/);
    expect(view.text).not.toContain('записей');
  });

  test('Russian plurals of the "N more" lines', () => {
    expect([1, 2, 5, 11, 21].map((count) => ru.t('notification.moreRecords', { count }))).toEqual([
      '… и ещё 1 запись изменилась',
      '… и ещё 2 записи изменились',
      '… и ещё 5 записей изменились',
      '… и ещё 11 записей изменились',
      '… и ещё 21 запись изменилась',
    ]);
    expect([1, 3, 12].map((count) => ru.t('change.moreChanges', { count }))).toEqual(['… и ещё 1 изменение', '… и ещё 3 изменения', '… и ещё 12 изменений']);
  });
});
