import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { createFormatter, isOpenEnded, parsePortalTimestamp } from '../src/format.ts';

const ru = createFormatter('ru');
const en = createFormatter('en');

describe('numbers', () => {
  test('money: two decimals, floating-point artefacts removed, no-break space and comma in Russian', () => {
    expect(ru.money(1234567.8900000001)).toBe('1\u00a0234\u00a0567,89');
    expect(en.money(1234567.8900000001)).toBe('1,234,567.89');
    expect(ru.money(100)).toBe('100,00');
    expect(en.money(0.1 + 0.2)).toBe('0.30');
    expect(ru.money(1234)).toBe('1\u00a0234,00');
  });

  test('zero and negative numbers', () => {
    expect(ru.money(0)).toBe('0,00');
    expect(en.money(0)).toBe('0.00');
    expect(ru.money(-1234.5)).toBe('-1\u00a0234,50');
    expect(en.money(-1234.5)).toBe('-1,234.50');
    expect(ru.money(-0.001)).toBe('0,00');
    expect(en.tonnes(-0.0001)).toBe('0');
    expect(en.tonnes(-12.5)).toBe('-12.5');
  });

  test('tonnes: up to three decimals, trailing zeros dropped', () => {
    expect(ru.tonnes(12.345000000000001)).toBe('12,345');
    expect(en.tonnes(12.345000000000001)).toBe('12.345');
    expect(ru.tonnes(12.3)).toBe('12,3');
    expect(ru.tonnes(12)).toBe('12');
    expect(en.tonnes(1.23456)).toBe('1.235');
    expect(ru.tonnes(123456.7891234)).toBe('123\u00a0456,789');
  });

  test('metres: up to two decimals; pieces: whole', () => {
    expect(ru.metres(120.50000000001)).toBe('120,5');
    expect(en.metres(9876543.219)).toBe('9,876,543.22');
    expect(ru.pieces(1234567)).toBe('1\u00a0234\u00a0567');
    expect(en.pieces(10.4)).toBe('10');
  });

  test('rounds the decimal a number reads as, half away from zero: 1.005 is 1.01, where toFixed gives 1.00', () => {
    expect(en.metres(1.005)).toBe('1.01');
    expect(en.metres(-1.005)).toBe('-1.01');
    expect(ru.money(2.675)).toBe('2,68');
    expect(ru.pieces(999.5)).toBe('1\u00a0000');
    expect(en.tonnes(1e-7)).toBe('0');
    expect(en.pieces(1e21)).toBe('1,000,000,000,000,000,000,000');
  });

  test('a generic number', () => {
    expect(ru.number(0.1 + 0.2)).toBe('0,3');
    expect(en.number(1234567.8900000001)).toBe('1,234,567.89');
    expect(en.number(0)).toBe('0');
  });

  test('null and non-finite values read as an em dash', () => {
    for (const fmt of [ru, en]) {
      expect(fmt.money(null)).toBe('—');
      expect(fmt.tonnes(null)).toBe('—');
      expect(fmt.metres(null)).toBe('—');
      expect(fmt.pieces(null)).toBe('—');
      expect(fmt.number(null)).toBe('—');
      expect(fmt.number(Number.NaN)).toBe('—');
      expect(fmt.quantity(null, 'TO')).toBe('—');
    }
  });
});

describe('units', () => {
  test.each([
    ['TO', 'т', 't'],
    ['TNE', 'т', 't'],
    ['T', 'т', 't'],
    ['M', 'м', 'm'],
    ['MTR', 'м', 'm'],
    ['ST', 'шт', 'pcs'],
    ['PC', 'шт', 'pcs'],
    ['PCE', 'шт', 'pcs'],
    ['H87', 'шт', 'pcs'],
    ['KG', 'кг', 'kg'],
    ['KGM', 'кг', 'kg'],
  ])('%s → %s / %s', (code, russian, english) => {
    expect(ru.unit(code)).toBe(russian);
    expect(en.unit(code)).toBe(english);
  });

  test('codes are matched regardless of case and spacing; an unknown code is shown as it is', () => {
    expect(ru.unit(' tne ')).toBe('т');
    expect(ru.unit('KMT')).toBe('KMT');
    expect(en.unit('')).toBe('');
  });

  test('quantity: the unit precision, a no-break space, the unit', () => {
    expect(ru.quantity(12.345000000000001, 'TO')).toBe('12,345\u00a0т');
    expect(en.quantity(120.555, 'MTR')).toBe('120.56\u00a0m');
    expect(ru.quantity(1234, 'ST')).toBe('1\u00a0234\u00a0шт');
    expect(en.quantity(2.5, 'PCE')).toBe('2.5\u00a0pcs');
    expect(ru.quantity(5.5, 'KGM')).toBe('5,5\u00a0кг');
    expect(en.quantity(3.25, 'KMT')).toBe('3.25\u00a0KMT');
    expect(ru.quantity(3, '')).toBe('3');
  });
});

describe('dates', () => {
  test('a midnight timestamp reads as a date', () => {
    expect(ru.date('2026-03-15 00:00:00')).toBe('15.03.2026');
    expect(en.date('2026-03-15 00:00:00')).toBe('15 Mar 2026');
    expect(ru.date('2026-03-05 00:00:00')).toBe('05.03.2026');
    expect(en.date('2026-03-05 00:00:00')).toBe('5 Mar 2026');
  });

  test('a bare date and the ISO "T" form are read too', () => {
    expect(ru.date('2026-12-31')).toBe('31.12.2026');
    expect(en.date('2026-12-31T00:00:00')).toBe('31 Dec 2026');
  });

  test('a time part that is not midnight is shown', () => {
    expect(ru.date('2026-03-15 14:30:00')).toBe('15.03.2026 14:30');
    expect(en.date('2026-03-15 14:30:00')).toBe('15 Mar 2026, 14:30');
    expect(en.date('2026-03-15 09:05')).toBe('15 Mar 2026, 09:05');
  });

  test('an unreadable value is shown as it came, never "Invalid Date"', () => {
    expect(ru.date('garbage')).toBe('garbage');
    expect(en.date('2026-02-30 00:00:00')).toBe('2026-02-30 00:00:00');
    expect(en.date('15.03.2026')).toBe('15.03.2026');
    expect(ru.date('')).toBe('');
    expect(en.date('2026-13-01')).toBe('2026-13-01');
    expect(en.date('2026-03-15 24:00:00')).toBe('2026-03-15 24:00:00');
    expect(en.date('2026-03-15 12:60')).toBe('2026-03-15 12:60');
    expect(en.date('2026-03-15 12:00:00 extra')).toBe('2026-03-15 12:00:00 extra');
  });

  test('leap days and early years are read as written', () => {
    expect(ru.date('2028-02-29 00:00:00')).toBe('29.02.2028');
    expect(en.date('2027-02-29')).toBe('2027-02-29');
    expect(ru.date('0099-01-02')).toBe('02.01.0099');
    expect(ru.date('0000-01-02')).toBe('02.01.0001');
    expect(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((month) => en.date(`2026-${month}-01`)).join(' | ')).toBe(
      '1 Jan 2026 | 1 Feb 2026 | 1 Mar 2026 | 1 Apr 2026 | 1 May 2026 | 1 Jun 2026 | 1 Jul 2026 | 1 Aug 2026 | 1 Sep 2026 | 1 Oct 2026 | 1 Nov 2026 | 1 Dec 2026',
    );
    expect(ru.date(' 2026-03-15 08:00:00 ')).toBe('15.03.2026 08:00');
  });

  test('a portal timestamp is kept as written, to the second, in the UTC fields', () => {
    // The reading as written, in the UTC fields: no zone applies to it.
    expect(parsePortalTimestamp('2026-03-15 14:30:05')).toEqual(new Date('2026-03-15T14:30:05Z'));
    expect(parsePortalTimestamp('2026-03-15T14:30')).toEqual(new Date('2026-03-15T14:30:00Z'));
    expect(parsePortalTimestamp('2026-03-15')).toEqual(new Date('2026-03-15T00:00:00Z'));
    expect(parsePortalTimestamp('0099-03-15')).toEqual(new Date('0099-03-15T00:00:00Z'));
    expect(parsePortalTimestamp('15.03.2026')).toBeNull();
  });

  test('the server’s own zone never shifts a portal date, not even in its daylight-saving gap', () => {
    // A process of its own: a test worker cannot change its zone. 02:00–03:00 on 2026-03-08 does not exist in New York.
    const script = `import { createFormatter } from ${JSON.stringify(new URL('../src/format.ts', import.meta.url).href)};
      const [ru, en] = [createFormatter('ru'), createFormatter('en')];
      console.log(JSON.stringify([ru.date('2026-03-08 02:30:00'), en.date('2026-11-01 01:30'), new Date(2026, 2, 8, 2, 30).getHours()]));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '--disable-warning=ExperimentalWarning', '-e', script], {
      env: { PATH: process.env.PATH ?? '', TZ: 'America/New_York' },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(['08.03.2026 02:30', '1 Nov 2026, 01:30', 3]);
  });

  test('null reads as an em dash', () => {
    expect(ru.date(null)).toBe('—');
    expect(en.date(null)).toBe('—');
  });

  test('far-future validity ends are open-ended', () => {
    expect(isOpenEnded('9999-12-31 00:00:00')).toBe(true);
    expect(isOpenEnded('9000-01-01')).toBe(true);
    expect(ru.isOpenEnded('9999-12-31')).toBe(true);
    expect(isOpenEnded('8999-12-31 00:00:00')).toBe(false);
    expect(isOpenEnded('2026-12-31 00:00:00')).toBe(false);
    expect(isOpenEnded('garbage')).toBe(false);
    expect(isOpenEnded(null)).toBe(false);
  });
});

describe('moments in the time zone of the people using the bot', () => {
  const moment = new Date('2026-11-23T11:05:00Z');

  test('the time of day in Europe/Moscow by default, whatever the server runs in', () => {
    expect(ru.timeZone).toBe('Europe/Moscow');
    expect(ru.time(moment)).toBe('14:05');
    expect(en.time(moment)).toBe('14:05');
    expect(createFormatter('en', 'UTC').time(moment)).toBe('11:05');
    expect(createFormatter('ru', 'Asia/Yekaterinburg').time(moment)).toBe('16:05');
  });

  test('24-hour clock, midnight as 00', () => {
    expect(en.time(new Date('2026-11-22T21:00:00Z'))).toBe('00:00');
    expect(en.time(new Date('2026-11-23T20:59:00Z'))).toBe('23:59');
  });

  test('day: the calendar day in the zone, as the portal writes days', () => {
    expect(ru.day(new Date('2026-11-23T20:59:00Z'))).toBe('2026-11-23'); // 23:59 in Moscow
    expect(ru.day(new Date('2026-11-23T21:00:00Z'))).toBe('2026-11-24');
  });

  test('dateTime: the time alone on the same day in the zone, with the date on another', () => {
    expect(ru.dateTime(moment, new Date('2026-11-23T20:59:00Z'))).toBe('14:05');
    expect(ru.dateTime(moment, new Date('2026-11-23T21:00:00Z'))).toBe('23.11.2026 14:05');
    expect(en.dateTime(moment, new Date('2026-11-24T09:00:00Z'))).toBe('23 Nov 2026, 14:05');
    expect(ru.dateTime(new Date('2026-11-21T11:05:00Z'), moment)).toBe('21.11.2026 14:05');
  });

  test('the day is the day in the zone, not in UTC', () => {
    const lateInMoscow = new Date('2026-11-23T22:30:00Z');
    expect(ru.dateTime(lateInMoscow, new Date('2026-11-24T08:00:00Z'))).toBe('01:30');
    expect(createFormatter('ru', 'UTC').dateTime(lateInMoscow, new Date('2026-11-24T08:00:00Z'))).toBe('23.11.2026 22:30');
  });

  test('an unknown time zone is refused when the formatter is made', () => {
    expect(() => createFormatter('ru', 'Mars/Olympus')).toThrow(RangeError);
  });
});

test('one formatter per locale and time zone', () => {
  expect(createFormatter('ru')).toBe(ru);
  expect(createFormatter('ru', 'Europe/Moscow')).toBe(ru);
  expect(createFormatter('ru', 'UTC')).not.toBe(ru);
  expect(createFormatter('en').locale).toBe('en');
});
