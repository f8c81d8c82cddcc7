import { describe, expect, it } from 'vitest';
import { parseLookupArgs } from '../../src/bot/lookup-args.ts';

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
    ['order', 'код 42', 'POSITION[MATERIAL_SAP_ID]', '42'],
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
    expect(parseLookupArgs('specification', 'date 31.02.2026')).toEqual({ ok: false, reason: 'badDate', value: '31.02.2026' });
  });
});
