import { describe, expect, it } from 'vitest';
import { parseLookupArgs, parseSapNumbers } from '../../src/bot/lookup-args.ts';

describe('parseLookupArgs', () => {
  it('reads a bare argument as the first filter of each command', () => {
    expect(parseLookupArgs('order', '0007300100')).toEqual({ ok: true, query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } });
    expect(parseLookupArgs('specification', 'ДП-77/2026')).toEqual({
      ok: true,
      query: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' },
    });
  });

  it.each([
    ['order', 'crm CRM-1', 'CRM_ID', 'CRM-1'],
    ['order', 'СРМ CRM-1', 'CRM_ID', 'CRM-1'],
    ['order', 'date 15.03.2026', 'DATE_ORDER', '2026-03-15'],
    ['order', 'Дата 2026-03-15', 'DATE_ORDER', '2026-03-15'],
    ['order', 'STATUS production', 'STATUS', 'production'],
    ['order', 'статус production_evaluation', 'STATUS', 'production_evaluation'],
    ['order', 'material труба 530х8', 'POSITION[MATERIAL_NAME]', 'труба 530х8'],
    ['order', 'материал Труба', 'POSITION[MATERIAL_NAME]', 'Труба'],
    ['order', 'code 000000000010012345', 'POSITION[MATERIAL_SAP_ID]', '000000000010012345'],
    ['order', 'код 42', 'POSITION[MATERIAL_SAP_ID]', '000000000000000042'],
    ['order', '7300100', 'SAP_ID', '0007300100'],
    ['order', 'crm crm-2026-004512', 'CRM_ID', 'CRM-2026-004512'],
    ['specification', 'дп-77/2026', 'CONTRACT_NUMBER', 'ДП-77/2026'],
    ['specification', 'date 15.03.26', 'ORDER[DATE_ORDER]', '2026-03-15'],
    ['specification', 'number 12', 'SPECIFICATION_NUMBER', '12'],
    ['specification', 'номер 12', 'SPECIFICATION_NUMBER', '12'],
    ['specification', 'status 20', 'STATUS', '20'],
    ['specification', 'type ZSD_DOG', 'STATUS_TYPE', 'ZSD_DOG'],
    ['specification', 'тип ZSDZMP', 'STATUS_TYPE', 'ZSDZMP'],
    ['specification', 'date 01.02.2026', 'ORDER[DATE_ORDER]', '2026-02-01'],
    ['specification', 'material труба', 'POSITION[MATERIAL_NAME]', 'труба'],
    ['specification', 'код 000000000010012345', 'POSITION[MATERIAL_SAP_ID]', '000000000010012345'],
  ] as const)('%s %s → %s', (resource, payload, filter, value) => {
    expect(parseLookupArgs(resource, payload)).toEqual({ ok: true, query: { resource, filter, value } });
  });

  it('reads today and yesterday in the day it is now', () => {
    expect(parseLookupArgs('order', 'дата вчера', { today: '2026-11-23' })).toEqual({ ok: true, query: { resource: 'order', filter: 'DATE_ORDER', value: '2026-11-22' } });
    expect(parseLookupArgs('specification', 'date 15 марта', { today: '2026-11-23' })).toEqual({
      ok: true,
      query: { resource: 'specification', filter: 'ORDER[DATE_ORDER]', value: '2026-03-15' },
    });
  });

  it('folds white space and control characters, keeps the text otherwise', () => {
    expect(parseLookupArgs('order', '  material   труба\n530 \u0000 ')).toEqual({
      ok: true,
      query: { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба 530' },
    });
    expect(parseLookupArgs('order', '<b>&limit=1000</b>')).toEqual({
      ok: true,
      query: { resource: 'order', filter: 'SAP_ID', value: '<b>&limit=1000</b>' },
    });
  });

  it('refuses what no portal call should be made for', () => {
    expect(parseLookupArgs('order', '')).toEqual({ ok: false, reason: 'empty' });
    expect(parseLookupArgs('order', '   ')).toEqual({ ok: false, reason: 'empty' });
    expect(parseLookupArgs('order', 'crm')).toEqual({ ok: false, reason: 'missingValue' });
    expect(parseLookupArgs('order', 'x'.repeat(10_000))).toEqual({ ok: false, reason: 'tooLong', max: 100 });
    expect(parseLookupArgs('order', 'date yesterday')).toEqual({ ok: false, reason: 'badDate', value: 'yesterday' });
    expect(parseLookupArgs('order', 'date 31.02.26', { today: '2026-11-23' })).toEqual({ ok: false, reason: 'badDate', value: '31.02.26' });
    expect(parseLookupArgs('specification', 'date 31.02.2026')).toEqual({ ok: false, reason: 'badDate', value: '31.02.2026' });
  });
});

describe('parseSapNumbers', () => {
  it('reads two or more SAP numbers, space or comma separated, as the pasted numbers are', () => {
    const values = (payload: string) => parseSapNumbers(payload)?.identifiers.map((identifier) => ('query' in identifier ? identifier.query.value : ''));
    expect(values('0007300100 0007300321')).toEqual(['0007300100', '0007300321']);
    expect(values('7300100,7300321;  7300100')).toEqual(['0007300100', '0007300321']);
    expect(parseSapNumbers(Array.from({ length: 12 }, (_, index) => 7_300_100 + index).join(' '))?.more).toBe(2);
  });

  it('leaves one value, and anything that is not all SAP numbers, to the filter', () => {
    expect(parseSapNumbers('0007300100')).toBeUndefined();
    expect(parseSapNumbers('crm CRM-1 CRM-2')).toBeUndefined();
    expect(parseSapNumbers('0007300100 труба')).toBeUndefined();
    expect(parseSapNumbers('12345678901 0007300100')).toBeUndefined();
  });
});
