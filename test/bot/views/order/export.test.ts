import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { orderExportSheets } from '../../../../src/bot/views/order/export.ts';
import { writeWorkbook } from '../../../../src/export/write-workbook.ts';
import { makeOrder, orderPosition } from '../../../fixtures/portal-records.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };

const ORDERS = [
  makeOrder(),
  makeOrder({
    SAP_ID: '0007300117',
    CRM_ID: '',
    DATE_ORDER: null,
    STATUS: 'shipment_ready',
    STATUS_TEXT: '',
    PREPAYMENT: null,
    POSITION_SUM: null,
    POSITION_METERS: null,
    POSITION_PIECES: null,
    POSITION_WEIGHT_TONN: null,
    POSITION: [orderPosition(3, { QUANTITY: 2.5, MEASURE: 'KMT', PRICE: 99.999, CURRENCY: 'USD', MATERIAL_SAP_ID: '000000000010014410' })],
  }),
];

const utc = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe('orders as sheets', () => {
  test('Russian: «Заказы» with every field, «Позиции» with the order’s SAP no.', () => {
    const [orders, positions] = orderExportSheets(ORDERS, ru.t, ru.fmt);
    expect(orders?.name).toBe('Заказы');
    expect(orders?.columns.map((column) => column.header)).toEqual([
      'Номер SAP',
      'Номер CRM',
      'Дата заказа',
      'Код статуса',
      'Статус',
      'Сумма',
      'Валюта',
      'Предоплата',
      'Вес, т',
      'Метры, м',
      'Штуки, шт',
      'Позиций',
    ]);
    expect(orders?.columns.map((column) => column.kind)).toEqual([
      'text', 'text', 'date', 'text', 'text', 'money', 'text', 'money', 'tonnes', 'metres', 'integer', 'integer',
    ]);
    expect([...(orders?.rows ?? [])]).toEqual([
      ['0007300100', 'CRM-2026-004512', utc('2026-03-15'), 'production', 'Производство', 1234567.8900000001, 'RUB', 500000, 12.345000000000001, 120.5, 10, 2],
      ['0007300117', null, null, 'shipment_ready', null, null, 'USD', null, null, null, null, 1],
    ]);
    expect(positions?.name).toBe('Позиции');
    expect(positions?.columns.map((column) => column.header)).toEqual([
      'Номер SAP заказа',
      'Номер позиции',
      'Код материала',
      'Материал',
      'Количество',
      'Ед. изм.',
      'Цена',
      'Валюта',
      'ID позиции',
    ]);
    expect([...(positions?.rows ?? [])]).toEqual([
      ['0007300100', '000010', '000000000010012345', 'Труба 530х8 К52 ГОСТ 20295-85', 12.345, 'т', 1000, 'RUB', '1'],
      ['0007300100', '000020', '000000000010012346', 'Труба э/с 133х4,5', 120.5, 'м', 1000, 'RUB', '2'],
      ['0007300117', '000030', '000000000010014410', 'Труба 3', 2.5, 'KMT', 99.999, 'USD', '3'],
    ]);
  });

  test('English sheet names and headers', () => {
    const sheets = orderExportSheets(ORDERS, en.t, en.fmt);
    expect(sheets.map((sheet) => sheet.name)).toEqual(['Orders', 'Positions']);
    expect(sheets[0]?.columns.map((column) => column.header)).toEqual([
      'SAP no.',
      'CRM no.',
      'Order date',
      'Status code',
      'Status',
      'Total',
      'Currency',
      'Prepayment',
      'Weight, t',
      'Metres, m',
      'Pieces, pcs',
      'Positions',
    ]);
    expect(sheets[1]?.columns.map((column) => column.header)).toEqual([
      'Order SAP no.',
      'Position no.',
      'Material code',
      'Material',
      'Quantity',
      'Unit',
      'Price',
      'Currency',
      'Position ID',
    ]);
    expect([...(sheets[1]?.rows ?? [])][0]?.[5]).toBe('t');
  });

  test('no orders: both sheets, headers only', () => {
    expect(orderExportSheets([], ru.t, ru.fmt).map((sheet) => [sheet.name, [...sheet.rows].length])).toEqual([
      ['Заказы', 0],
      ['Позиции', 0],
    ]);
  });
});

describe('orders in a workbook', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'order-export-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('read back: codes keep their zeros, amounts are rounded numbers, dates are dates', async () => {
    const path = join(dir, 'orders.xlsx');
    await writeWorkbook({ path, sheets: orderExportSheets(ORDERS, ru.t, ru.fmt) });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Заказы', 'Позиции']);
    const orders = workbook.getWorksheet('Заказы')!;
    expect(orders.rowCount).toBe(1 + ORDERS.length);
    expect([orders.getCell('A2').type, orders.getCell('A2').value]).toEqual([ExcelJS.ValueType.String, '0007300100']);
    expect([orders.getCell('C2').type, orders.getCell('C2').value, orders.getCell('C2').numFmt]).toEqual([
      ExcelJS.ValueType.Date,
      utc('2026-03-15'),
      'dd.mm.yyyy',
    ]);
    expect([orders.getCell('F2').type, orders.getCell('F2').value, orders.getCell('F2').numFmt]).toEqual([
      ExcelJS.ValueType.Number,
      1234567.89,
      '#,##0.00',
    ]);
    expect([orders.getCell('I2').value, orders.getCell('I2').numFmt]).toEqual([12.345, '#,##0.000']);
    expect(orders.getCell('C3').type).toBe(ExcelJS.ValueType.Null);
    const positions = workbook.getWorksheet('Позиции')!;
    expect(positions.rowCount).toBe(1 + 3);
    expect(positions.getCell('C2').value).toBe('000000000010012345');
    expect(positions.getCell('B4').value).toBe('000030');
    expect([positions.getCell('G4').value, positions.getCell('G4').numFmt]).toEqual([100, '#,##0.00']);
  });
});
