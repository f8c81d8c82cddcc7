import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../src/i18n.ts';
import { unpackCallback } from '../../../src/bot/callback-data/codec.ts';
import { MATERIALS_PER_PAGE, renderMaterialsKeyboard } from '../../../src/bot/keyboards/materials.ts';
import { renderRecordKeyboard, type RecordPlace } from '../../../src/bot/keyboards/record.ts';

const ru = createTranslator('ru');
const en = createTranslator('en');
const place: RecordPlace = { list: { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } }, paging: { limit: 5, offset: 0 }, index: 0, id: 'Ab_-9z' };
const dataOf = (button: object) => ('callback_data' in button ? String(button.callback_data) : undefined);

describe('the keyboard of a record in full', () => {
  it('English: one button each to choose a material, requests, a copy of its number, its parts (◀ disabled on the first), Refresh, 🔔 primary', () => {
    const keyboard = renderRecordKeyboard({ part: 0, parts: 3, relatedOrders: ['0007300372'], materials: true, copy: { label: '0007300100', text: '0007300100' } }, place, en, { watch: {}, back: false });
    expect(keyboard.map((row) => row.map((button) => button.text))).toEqual([
      ['📦 Orders with a material…', '📄 Specifications with a material…'],
      ['Request 0007300372'],
      ['📋 0007300100'],
      ['◀', '1/3', '▶'],
      ['🔄 Refresh', '🔔 Watch'],
    ]);
    expect(keyboard[2]?.[0]).toEqual({ text: '📋 0007300100', copy_text: { text: '0007300100' } });
    expect(keyboard[3]?.[0]).toEqual({ text: '◀', disabled: {} });
    expect(unpackCallback(dataOf(keyboard[3]![2]!))).toMatchObject({ type: 'record', part: 1, refresh: false });
    expect(keyboard[4]?.[1]).toMatchObject({ style: 'primary' });
    expect(unpackCallback(dataOf(keyboard[0]![0]!))).toEqual({ type: 'materials', resource: 'order', ...place.paging, index: 0, page: 0, id: 'Ab_-9z', ref: place.list });
    expect(unpackCallback(dataOf(keyboard[0]![1]!))).toMatchObject({ type: 'materials', resource: 'specification' });
  });

  it('Russian: on the last part ▶ disabled; Back when it replaced its results page; 🔕 danger when watched; no materials, no chooser', () => {
    const keyboard = renderRecordKeyboard({ part: 2, parts: 3, relatedOrders: [], materials: false, copy: { label: 'x'.repeat(60), text: 'y'.repeat(300) } }, place, ru, { watch: { watchId: 7 }, back: true });
    expect(keyboard.map((row) => row.map((button) => button.text))).toEqual([[`📋 ${'x'.repeat(39)}…`], ['◀', '3/3', '▶'], ['◀ К списку', '🔄 Обновить', '🔕 Не следить']]);
    expect(keyboard[0]?.[0]).toMatchObject({ copy_text: { text: expect.stringMatching(/^y{255}…$/) } });
    expect(keyboard[1]?.[2]).toEqual({ text: '▶', disabled: {} });
    expect(keyboard[2]?.[2]).toMatchObject({ style: 'danger', callback_data: 'u:7' });
  });
});

describe('the keyboard choosing a material', () => {
  const materials = Array.from({ length: 11 }, (_, k) => ({ code: `0000000000100123${String(k).padStart(2, '0')}`, name: `Труба ${'х'.repeat(k * 5)}` }));

  it('English: a page of materials, one a row, each a lookup of the orders with it; the pager; Back to the record', () => {
    const keyboard = renderMaterialsKeyboard(materials, 'order', 0, place, en);
    expect(keyboard).toHaveLength(MATERIALS_PER_PAGE + 2);
    expect(keyboard[0]).toEqual([{ text: '📦 10012300 · Труба ', callback_data: 'x:o5=000000000010012300' }]);
    expect(keyboard[7]?.[0]?.text).toBe(`📦 10012307 · Труба ${'х'.repeat(33)}…`);
    expect(keyboard[8]?.map((button) => button.text)).toEqual(['◀', '1/2', '▶']);
    expect(keyboard[8]?.[0]).toEqual({ text: '◀', disabled: {} });
    expect(unpackCallback(dataOf(keyboard[8]![2]!))).toMatchObject({ type: 'materials', resource: 'order', page: 1 });
    expect(keyboard[9]).toEqual([{ text: '◀ Back to the record', callback_data: 'r:5:0:0:0:Ab_-9z:o0=0007300100' }]);
  });

  it('Russian: the last page, specifications; a code too long for a button is left out', () => {
    const keyboard = renderMaterialsKeyboard([...materials, { code: '9'.repeat(60), name: 'длинный' }], 'specification', 5, place, ru);
    expect(keyboard.slice(0, 3).map((row) => row[0]?.text)).toEqual(['📄 10012308 · Труба ' + 'х'.repeat(33) + '…', `📄 10012309 · Труба ${'х'.repeat(33)}…`, `📄 10012310 · Труба ${'х'.repeat(33)}…`]);
    expect(keyboard[3]?.map((button) => button.text)).toEqual(['◀', '2/2', '▶']);
    expect(keyboard[3]?.[2]).toEqual({ text: '▶', disabled: {} });
    expect(keyboard.at(-1)?.[0]?.text).toBe('◀ К записи');
  });
});
