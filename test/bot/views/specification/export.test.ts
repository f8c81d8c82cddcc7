import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTranslator } from '../../../../src/i18n.ts';
import { specExportSheets } from '../../../../src/bot/views/specification/export.ts';
import { writeWorkbook } from '../../../../src/export/write-workbook.ts';
import { makeSpecification, specificationPosition } from '../../../fixtures/portal-records.ts';

const ru = createTranslator('ru');
const en = createTranslator('en');
const utc = (iso: string) => new Date(`${iso}T00:00:00Z`);

const SPECS = [
  makeSpecification({
    DATE_ACTIVE_TO: '9999-12-31 00:00:00',
    PLANNED_WEIGHT_TONN: 120.50000000000001,
    DOCUMENT: [{ ID: 1, NUMBER: '123', DATE: '2026-02-01 00:00:00' }],
    // The same document again, and one more: DOCUMENT and DOCUMENT_LIST make two documents.
    DOCUMENT_LIST: [
      { ID: 1, NUMBER: '123', DATE: '2026-02-01 00:00:00' },
      { ID: 2, NUMBER: 'УПД-00311', DATE: '2026-02-20 00:00:00' },
    ],
    DELIVERY: [{ CONSIGNEE_SHORT_NAME: 'ООО Ромашка' }, { CONSIGNEE_SHORT_NAME: 'АО Волга' }],
  }),
  makeSpecification({
    SAP_ID: '0040001243',
    SPECIFICATION_NUMBER: '3-А',
    STATUS: '70',
    STATUS_TYPE: 'ZSDZMP',
    CONTRACT_DATE: null,
    PLANNED_WEIGHT_TONN: null,
    PREPAYMENT: 0,
    DATE_ACTIVE_TO: '2026-12-31 00:00:00',
    DELIVERY: null,
    DOCUMENT: null,
    ORDER: null,
    POSITION: [specificationPosition(5, { DATE_PLANNED_PRODUCTION: null })],
  }),
];

describe('specifications as sheets', () => {
  test('Russian: five sheets, each list row led by the specification’s SAP no. and number', () => {
    const sheets = specExportSheets(SPECS, ru);
    expect(sheets.map((sheet) => sheet.name)).toEqual(['Спецификации', 'Позиции', 'Документы', 'Отгрузки', 'Заявки']);
    const [specs, positions, documents, deliveries, requests] = sheets;
    expect(specs?.columns.map((column) => column.header)).toEqual([
      'Номер SAP',
      'Номер спецификации',
      'Договор №',
      'Дата договора',
      'Статус',
      'Тип статуса',
      'Действует с',
      'Действует по',
      'Примечание к сроку',
      'Плановый вес, т',
      'Предоплата',
      'Позиций',
    ]);
    expect([...(specs?.rows ?? [])]).toEqual([
      ['0040001234', '12', 'ДП-77/2026', utc('2026-02-01'), '20', 'ZSD_DOG', utc('2026-03-01'), utc('9999-12-31'), 'бессрочно', 120.50000000000001, 1000000, 2],
      ['0040001243', '3-А', 'ДП-77/2026', null, '70', 'ZSDZMP', utc('2026-03-01'), utc('2026-12-31'), null, null, 0, 1],
    ]);
    expect(positions?.columns.map((column) => column.header)).toEqual([
      'Номер SAP спецификации',
      'Номер спецификации',
      'Номер позиции',
      'Код материала',
      'Материал',
      'Плановая дата производства',
      'Примечание к плану',
      'PID',
      'ID позиции',
    ]);
    expect([...(positions?.rows ?? [])]).toEqual([
      ['0040001234', '12', '000010', '000000000010012345', 'Труба 530х8 К52 ГОСТ 20295-85', utc('2026-04-15'), null, null, '1'],
      ['0040001234', '12', '000020', '000000000010012346', 'Труба э/с 133х4,5', null, 'не запланировано', null, '2'],
      ['0040001243', '3-А', '000050', '000000000010012349', 'Труба 5', null, 'не запланировано', null, '5'],
    ]);
    expect(documents?.columns.map((column) => column.header)).toEqual([
      'Номер SAP спецификации',
      'Номер спецификации',
      'Номер документа',
      'Дата документа',
      'ID документа',
    ]);
    expect([...(documents?.rows ?? [])]).toEqual([
      ['0040001234', '12', '123', utc('2026-02-01'), '1'],
      ['0040001234', '12', 'УПД-00311', utc('2026-02-20'), '2'],
    ]);
    expect(deliveries?.columns.map((column) => column.header)).toEqual(['Номер SAP спецификации', 'Номер спецификации', 'Грузополучатель']);
    expect([...(deliveries?.rows ?? [])]).toEqual([
      ['0040001234', '12', 'ООО Ромашка'],
      ['0040001234', '12', 'АО Волга'],
    ]);
    expect(requests?.columns.map((column) => column.header)).toEqual([
      'Номер SAP спецификации',
      'Номер спецификации',
      'Номер SAP заявки',
      'Номер заявки',
      'Дата заявки',
      'ID заявки',
    ]);
    expect([...(requests?.rows ?? [])]).toEqual([['0040001234', '12', '0007300100', null, utc('2026-03-15'), '7']]);
  });

  test('English sheet names, headers and the open-ended note', () => {
    const sheets = specExportSheets(SPECS, en);
    expect(sheets.map((sheet) => sheet.name)).toEqual(['Specifications', 'Positions', 'Documents', 'Deliveries', 'Production requests']);
    expect(sheets[0]?.columns.map((column) => column.header)).toEqual([
      'SAP no.',
      'Specification no.',
      'Contract no.',
      'Contract date',
      'Status',
      'Status type',
      'Valid from',
      'Valid to',
      'Validity note',
      'Planned weight, t',
      'Prepayment',
      'Positions',
    ]);
    expect([...(sheets[0]?.rows ?? [])][0]?.[8]).toBe('open-ended');
    expect(sheets.slice(1).map((sheet) => sheet.columns.slice(0, 2).map((column) => column.header))).toEqual(
      Array(4).fill(['Specification SAP no.', 'Specification no.']),
    );
    expect(sheets[4]?.columns.slice(2).map((column) => column.header)).toEqual(['Request SAP no.', 'Request no.', 'Request date', 'Request ID']);
  });
});

describe('specifications in a workbook', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'spec-export-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('read back: a far-future end stays a date beside its note; weights are rounded numbers', async () => {
    const path = join(dir, 'specs.xlsx');
    await writeWorkbook({ path, sheets: specExportSheets(SPECS, ru) });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    expect(workbook.worksheets.map((sheet) => [sheet.name, sheet.rowCount])).toEqual([
      ['Спецификации', 3],
      ['Позиции', 4],
      ['Документы', 3],
      ['Отгрузки', 3],
      ['Заявки', 2],
    ]);
    const specs = workbook.getWorksheet('Спецификации')!;
    expect([specs.getCell('H2').type, specs.getCell('H2').value, specs.getCell('H2').numFmt]).toEqual([
      ExcelJS.ValueType.Date,
      utc('9999-12-31'),
      'dd.mm.yyyy',
    ]);
    expect(specs.getCell('I2').value).toBe('бессрочно');
    expect(specs.getCell('I3').type).toBe(ExcelJS.ValueType.Null);
    expect([specs.getCell('J2').type, specs.getCell('J2').value, specs.getCell('J2').numFmt]).toEqual([
      ExcelJS.ValueType.Number,
      120.5,
      '#,##0.000',
    ]);
    expect([specs.getCell('K3').type, specs.getCell('K3').value]).toEqual([ExcelJS.ValueType.Number, 0]);
    expect([specs.getCell('A2').type, specs.getCell('A2').value]).toEqual([ExcelJS.ValueType.String, '0040001234']);
    const requests = workbook.getWorksheet('Заявки')!;
    expect(requests.getCell('C2').value).toBe('0007300100');
    expect(requests.autoFilter).toBe('A1:F2');
  });
});
