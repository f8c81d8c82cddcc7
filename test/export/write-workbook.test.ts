import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeWorkbook } from '../../src/export/write-workbook.ts';
import { lazyRows, type Sheet } from '../../src/export/sheet.ts';
import { DATE_FORMATS } from '../../src/export/cell-format.ts';
import { MAX_WIDTH, MIN_WIDTH } from '../../src/export/column-width.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'write-workbook-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = async (path: string) => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook;
};

const SHEET: Sheet = {
  name: 'Заказы',
  columns: [
    { header: 'Номер SAP', kind: 'text' },
    { header: 'Дата', kind: 'date' },
    { header: 'Сумма', kind: 'money' },
    { header: 'Вес, т', kind: 'tonnes' },
    { header: 'Метры', kind: 'metres' },
    { header: 'Штуки', kind: 'integer' },
    { header: 'Количество', kind: 'quantity' },
    { header: 'Материал', kind: 'text' },
  ],
  rows: [
    ['0007300100', new Date(Date.UTC(2026, 2, 15)), 1234567.8900000001, 12.345000000000001, 120.50000000000001, 10, 12.3456, 'Труба 530х8 К52 ГОСТ 20295-85'],
    ['0007300117', null, null, null, null, null, 40, null],
    ['000010', new Date(Date.UTC(9999, 11, 31)), 0.1 + 0.2, 1 / 3, 2, 7.0000001, 120.5, '=1+1'],
  ],
};

describe('writeWorkbook', () => {
  test('writes lazy rows (read twice: widths, then cells), dates in the English format, the filter over every row', async () => {
    const path = join(dir, 'lazy-en.xlsx');
    const sheet: Sheet = {
      name: 'Orders',
      columns: [{ header: 'SAP no.', kind: 'text' }, { header: 'Order date', kind: 'date' }],
      rows: lazyRows(function* () {
        for (let k = 0; k < 120; k++) yield [`code ${'x'.repeat(k % 30)}`, new Date(Date.UTC(2026, 2, 3))];
      }),
    };
    await writeWorkbook({ path, sheets: [sheet], dates: DATE_FORMATS.en, note: 'a note' });
    const written = (await read(path)).getWorksheet('Orders')!;
    expect(written.getCell('A121').value).toBe(`code ${'x'.repeat(119 % 30)}`);
    expect(written.getCell('B2').numFmt).toBe('d mmm yyyy');
    expect(written.getCell('A123').value).toBe('a note');
    expect(written.getColumn(1).width).toBeGreaterThan(30);
    expect(written.autoFilter).toBe('A1:B121');
  });

  test('stops between rows when its signal aborts, leaving no file', async () => {
    const path = join(dir, 'aborted.xlsx');
    const stopping = new AbortController();
    const sheet: Sheet = {
      name: 'Rows',
      columns: [{ header: 'A', kind: 'text' }],
      rows: lazyRows(function* () {
        for (let k = 0; k < 10_000; k++) {
          if (k === 5_000) stopping.abort();
          yield [`row ${k}`];
        }
      }),
    };
    await expect(writeWorkbook({ path, sheets: [sheet], signal: stopping.signal })).rejects.toThrow();
    expect(await readdir(dir)).not.toContain('aborted.xlsx');
  });

  test('writes typed cells: text codes, rounded numbers with formats, UTC dates, empty cells', async () => {
    const path = join(dir, 'typed.xlsx');
    const { bytes } = await writeWorkbook({ path, sheets: [SHEET] });
    expect(bytes).toBe((await stat(path)).size);
    expect(bytes).toBeGreaterThan(1000);
    const sheet = (await read(path)).getWorksheet('Заказы')!;
    expect(sheet.rowCount).toBe(4);

    const code = sheet.getCell('A2');
    expect(code.type).toBe(ExcelJS.ValueType.String);
    expect(code.value).toBe('0007300100');
    expect(sheet.getCell('A4').value).toBe('000010');

    const date = sheet.getCell('B2');
    expect(date.type).toBe(ExcelJS.ValueType.Date);
    expect(date.value).toEqual(new Date('2026-03-15T00:00:00Z'));
    expect(date.numFmt).toBe('dd.mm.yyyy');
    expect(sheet.getCell('B4').value).toEqual(new Date('9999-12-31T00:00:00Z'));

    const money = sheet.getCell('C2');
    expect(money.type).toBe(ExcelJS.ValueType.Number);
    expect(money.value).toBe(1234567.89);
    expect(money.numFmt).toBe('#,##0.00');
    expect(sheet.getCell('C4').value).toBe(0.3);
    expect(sheet.getCell('D2').value).toBe(12.345);
    expect(sheet.getCell('D2').numFmt).toBe('#,##0.000');
    expect(sheet.getCell('D4').value).toBe(0.333);
    expect(sheet.getCell('E2').value).toBe(120.5);
    expect(sheet.getCell('E2').numFmt).toBe('#,##0.00');
    expect(sheet.getCell('F2').value).toBe(10);
    expect(sheet.getCell('F2').numFmt).toBe('0');
    expect(sheet.getCell('F4').value).toBe(7);
    expect([sheet.getCell('G2').value, sheet.getCell('G2').numFmt]).toEqual([12.346, '#,##0.0##']);
    expect([sheet.getCell('G3').value, sheet.getCell('G3').numFmt]).toEqual([40, '#,##0']);

    // Missing values are empty cells, and text that looks like a formula stays text.
    for (const address of ['B3', 'C3', 'D3', 'E3', 'F3', 'H3']) expect(sheet.getCell(address).type).toBe(ExcelJS.ValueType.Null);
    expect(sheet.getCell('H4').type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getCell('H4').value).toBe('=1+1');
  });

  test('a bold, frozen header with an autofilter over the data, and fitted widths', async () => {
    const path = join(dir, 'header.xlsx');
    await writeWorkbook({ path, sheets: [SHEET] });
    const sheet = (await read(path)).getWorksheet('Заказы')!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...SHEET.columns.map((column) => column.header)]);
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.getCell('A2').font?.bold).not.toBe(true);
    expect(sheet.views).toMatchObject([{ state: 'frozen', ySplit: 1 }]);
    expect(sheet.autoFilter).toBe('A1:H4');
    const widths = SHEET.columns.map((_, index) => sheet.getColumn(index + 1).width ?? 0);
    for (const width of widths) expect(width).toBeGreaterThanOrEqual(MIN_WIDTH);
    // "Труба 530х8 К52 ГОСТ 20295-85" is 29 characters: its column is wider than the codes'.
    expect(widths[7]).toBeGreaterThanOrEqual(31);
    expect(widths[7]).toBeGreaterThan(widths[0]!);
    // "1,234,567.89" is 12 characters.
    expect(widths[2]).toBeGreaterThanOrEqual(14);
  });

  test('a very long text caps the width; a fixed width is kept', async () => {
    const path = join(dir, 'widths.xlsx');
    await writeWorkbook({
      path,
      sheets: [
        {
          name: 'W',
          columns: [
            { header: 'Long', kind: 'text' },
            { header: 'Fixed', kind: 'text', width: 25 },
          ],
          rows: [['x'.repeat(500), 'y']],
        },
      ],
    });
    const sheet = (await read(path)).getWorksheet('W')!;
    expect(sheet.getColumn(1).width).toBe(MAX_WIDTH);
    expect(sheet.getColumn(2).width).toBe(25);
  });

  test('the note goes on the first sheet below the data, after an empty row, outside the autofilter', async () => {
    const path = join(dir, 'note.xlsx');
    const second: Sheet = { name: 'Позиции', columns: [{ header: 'X', kind: 'text' }], rows: [] };
    await writeWorkbook({ path, sheets: [SHEET, second], note: 'Показаны первые 1000 из 1234 записей' });
    const workbook = await read(path);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Заказы', 'Позиции']);
    const first = workbook.getWorksheet('Заказы')!;
    expect(first.getCell('A5').type).toBe(ExcelJS.ValueType.Null);
    expect(first.getCell('A6').value).toBe('Показаны первые 1000 из 1234 записей');
    expect(first.autoFilter).toBe('A1:H4');
    const empty = workbook.getWorksheet('Позиции')!;
    expect(empty.rowCount).toBe(1);
    expect(empty.autoFilter).toBe('A1:A1');
  });

  test('sheet names Excel refuses are made acceptable and unique', async () => {
    const path = join(dir, 'names.xlsx');
    const sheet = (name: string): Sheet => ({ name, columns: [{ header: 'A', kind: 'text' }], rows: [] });
    await writeWorkbook({ path, sheets: [sheet('a/b:c'), sheet('A/B:C'), sheet('x'.repeat(40))] });
    expect((await read(path)).worksheets.map((worksheet) => worksheet.name)).toEqual(['a b c', 'A B C 2', 'x'.repeat(31)]);
  });

  test('text XML 1.0 forbids (U+FFFE, U+FFFF, lone surrogates, C0 controls) is left out: the file opens', async () => {
    const path = join(dir, 'forbidden.xlsx');
    const dirty = (text: string) => `\uFFFE${text}\uFFFF\uD800 \u0001\u001F\uDC00end`;
    const sheet: Sheet = {
      name: dirty('Лист'),
      columns: [{ header: dirty('Материал'), kind: 'text' }, { header: 'Дата', kind: 'date' }],
      // A pair stays whole; one cut at Excel's 32 767 characters would leave half of it alone.
      rows: [[dirty('Труба 530х8'), dirty('не дата')], ['😀 tab\there\nline'], [`${'x'.repeat(32_766)}😀`]],
    };
    await writeWorkbook({ path, sheets: [sheet], note: dirty('Примечание') });
    const written = (await read(path)).worksheets[0]!;
    expect(written.name).toBe('Лист end');
    expect(written.getCell('A1').value).toBe('Материал end');
    expect(written.getCell('A2').value).toBe('Труба 530х8 end');
    expect(written.getCell('B2').value).toBe('не дата end');
    expect(written.getCell('A3').value).toBe('😀 tab\there\nline');
    expect(written.getCell('A4').value).toBe('x'.repeat(32_766));
    expect(written.getCell('A6').value).toBe('Примечание end');
  });

  test('a file that cannot be written rejects and leaves nothing behind', async () => {
    const path = join(dir, 'missing-folder', 'x.xlsx');
    await expect(writeWorkbook({ path, sheets: [SHEET] })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(writeWorkbook({ path: join(dir, 'none.xlsx'), sheets: [] })).rejects.toThrow(RangeError);
    expect((await readdir(dir)).filter((name) => name.startsWith('none') || name === 'missing-folder')).toEqual([]);
  });

  test('a failure while rows are streamed removes the file begun', async () => {
    // Rows that can be measured but break when streamed (the second pass over them).
    class BreakingRows extends Array<readonly string[]> {
      passes = 0;
      override *[Symbol.iterator](): ArrayIterator<readonly string[]> {
        this.passes += 1;
        if (this.passes > 1) throw new Error('broken row');
        yield* this.values();
      }
    }
    const rows = BreakingRows.from<readonly string[]>([['a'], ['b']]);
    const path = join(dir, 'broken.xlsx');
    const first: Sheet = { name: 'Fine', columns: [{ header: 'A', kind: 'text' }], rows: Array.from({ length: 5000 }, (_, k) => [`row ${k}`]) };
    await expect(
      writeWorkbook({ path, sheets: [first, { name: 'Broken', columns: [{ header: 'A', kind: 'text' }], rows }] }),
    ).rejects.toThrow('broken row');
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
