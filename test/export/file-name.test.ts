import { describe, expect, test } from 'vitest';
import { exportFileName, MAX_VALUE_PART } from '../../src/export/file-name.ts';
import { transliterate } from '../../src/export/transliterate.ts';
import { parseLookupArgs } from '../../src/bot/lookup-args.ts';
import type { Query } from '../../src/query.ts';

const queryOf = (resource: Query['resource'], args: string): Query => {
  const parsed = parseLookupArgs(resource, args);
  if (!parsed.ok) throw new Error(`not a lookup: ${args}`);
  return parsed.query;
};

describe('exportFileName', () => {
  test('the examples of the issue', () => {
    expect(exportFileName(queryOf('order', 'status production'), '2026-11-23')).toBe('orders-status-production-2026-11-23.xlsx');
    expect(exportFileName(queryOf('specification', 'ДП-77/2026'), '2026-11-23')).toBe(
      'specifications-contract-DP-77-2026-2026-11-23.xlsx',
    );
  });

  test('each filter is named by its /order or /spec keyword; a bare value by what it means', () => {
    const day = '2026-11-23';
    expect(exportFileName(queryOf('order', '0007300100'), day)).toBe('orders-sap-0007300100-2026-11-23.xlsx');
    expect(exportFileName(queryOf('order', 'срм CRM-2026-004512'), day)).toBe('orders-crm-CRM-2026-004512-2026-11-23.xlsx');
    expect(exportFileName(queryOf('order', 'дата 15.03.2026'), day)).toBe('orders-date-2026-03-15-2026-11-23.xlsx');
    expect(exportFileName(queryOf('order', 'material Труба э/с 133х4,5'), day)).toBe(
      'orders-material-Truba-e-s-133kh4-5-2026-11-23.xlsx',
    );
    expect(exportFileName(queryOf('order', 'код 000000000010012345'), day)).toBe('orders-code-000000000010012345-2026-11-23.xlsx');
    expect(exportFileName(queryOf('specification', 'number 3-А'), day)).toBe('specifications-number-3-A-2026-11-23.xlsx');
    expect(exportFileName(queryOf('specification', 'тип ZSD_DOG'), day)).toBe('specifications-type-ZSD-DOG-2026-11-23.xlsx');
    expect(exportFileName(queryOf('specification', 'статус 20'), day)).toBe('specifications-status-20-2026-11-23.xlsx');
    expect(exportFileName(queryOf('specification', 'date 2026-03-15'), day)).toBe('specifications-date-2026-03-15-2026-11-23.xlsx');
  });

  test('the status as the user typed it, transliterated', () => {
    expect(exportFileName(queryOf('order', 'статус Производство'), '2026-11-23')).toBe('orders-status-Proizvodstvo-2026-11-23.xlsx');
  });

  test('only ASCII letters, digits and single dashes; long values are cut; an unreadable value is left out', () => {
    const long = exportFileName(queryOf('order', `material ${'Щука '.repeat(15)}`), '2026-11-23');
    expect(long).toMatch(/^[A-Za-z0-9-]+\.xlsx$/);
    expect(long).not.toMatch(/--/);
    const value = long.slice('orders-material-'.length, -'-2026-11-23.xlsx'.length);
    expect(value.length).toBeLessThanOrEqual(MAX_VALUE_PART);
    expect(value).toMatch(/^Shchuka-Shchuka-/);
    expect(value).not.toMatch(/-$/);
    expect(exportFileName(queryOf('order', 'material «»/…'), '2026-11-23')).toBe('orders-material-2026-11-23.xlsx');
    expect(exportFileName(queryOf('order', 'material ../../etc/passwd'), '2026-11-23')).toBe('orders-material-etc-passwd-2026-11-23.xlsx');
  });
});

describe('transliterate', () => {
  test('the passport scheme, upper and lower case', () => {
    expect(transliterate('Съешь же ещё этих мягких французских булок, да выпей чаю')).toBe(
      'Sesh zhe eshche etikh myagkikh frantsuzskikh bulok, da vypey chayu',
    );
    expect(transliterate('ДП ЖХЦЧШЩЮЯЁЙЫЬЪЭ')).toBe('DP ZhKhTsChShShchYuYaEYYE');
    expect(transliterate('Ёлка, йод')).toBe('Elka, yod');
  });

  test('Latin text stays; other diacritics are dropped; № reads No', () => {
    expect(transliterate('Pipe 219x6 ст.20')).toBe('Pipe 219x6 st.20');
    expect(transliterate('Crème brûlée № 5')).toBe('Creme brulee No 5');
  });
});
