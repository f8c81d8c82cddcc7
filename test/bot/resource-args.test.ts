import { describe, expect, it } from 'vitest';
import { parseResourceArgs } from '../../src/bot/lookup-args.ts';

describe('a resource word, then the lookup arguments (/watch, inline mode)', () => {
  it('takes a bare value as an order by SAP number, as /order does', () => {
    expect(parseResourceArgs('0007300100')).toEqual({ ok: true, query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } });
  });

  it('takes /order arguments after order or заказ', () => {
    const expected = { ok: true, query: { resource: 'order', filter: 'STATUS', value: 'production' } };
    expect(parseResourceArgs('order status production')).toEqual(expected);
    expect(parseResourceArgs('Заказ статус production')).toEqual(expected);
    expect(parseResourceArgs('order material труба 530')).toEqual({
      ok: true,
      query: { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба 530' },
    });
  });

  it('takes /spec arguments after spec, спец or спецификация', () => {
    const expected = { ok: true, query: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' } };
    expect(parseResourceArgs('spec ДП-77/2026')).toEqual(expected);
    expect(parseResourceArgs('спец  ДП-77/2026 ')).toEqual(expected);
    expect(parseResourceArgs('спецификация ДП-77/2026')).toEqual(expected);
    expect(parseResourceArgs('spec date 15.03.2026')).toEqual({ ok: true, query: { resource: 'specification', filter: 'ORDER[DATE_ORDER]', value: '2026-03-15' } });
  });

  it('refuses a resource word without a value, a bad date and an overlong value', () => {
    expect(parseResourceArgs('order')).toEqual({ ok: false, reason: 'empty' });
    expect(parseResourceArgs('спец')).toEqual({ ok: false, reason: 'empty' });
    expect(parseResourceArgs('order status')).toEqual({ ok: false, reason: 'missingValue' });
    expect(parseResourceArgs('order date 31.02.2026')).toEqual({ ok: false, reason: 'badDate', value: '31.02.2026' });
    expect(parseResourceArgs(`spec ${'x'.repeat(101)}`)).toEqual({ ok: false, reason: 'tooLong', max: 100 });
  });
});
