import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { clockTime, isoDay, parseTzif, zoneOf, type WallClock } from '../src/zone.ts';

// zone.ts reads the system's tz database instead of Intl: checked against Intl, second by
// second around every change of offset, and on files written here for the odd cases.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Minutes east of UTC, from a wall clock read at a moment on a whole minute. */
const offsetOf = (wall: WallClock, moment: number): number =>
  (Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) - moment) / 60_000;

const intlOffset = (timeZone: string) => {
  const intl = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
  return (moment: number): number => {
    const parts = Object.fromEntries(intl.formatToParts(moment).map((part) => [part.type, Number(part.value)]));
    return offsetOf({ year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! }, moment);
  };
};

// Russia's zones, where sales staff are, and zones with every kind of rule: southern daylight
// time, half and quarter hours, a 30-minute daylight shift (Lord Howe), negative daylight time
// in the database (Dublin), changes at 24:00 (Santiago). (Casablanca's data differ between the
// system's tzdata 2025b and Node's ICU 2026c from 2026 on: not a check of the code.)
const ZONES = [
  'Europe/Moscow', 'Europe/Kaliningrad', 'Europe/Samara', 'Asia/Yekaterinburg', 'Asia/Omsk', 'Asia/Novosibirsk', 'Asia/Krasnoyarsk',
  'Asia/Irkutsk', 'Asia/Yakutsk', 'Asia/Vladivostok', 'Asia/Magadan', 'Asia/Kamchatka', 'Europe/Minsk', 'Europe/Berlin', 'Europe/London',
  'Europe/Dublin', 'Europe/Istanbul', 'Asia/Tashkent', 'Asia/Shanghai', 'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Tehran',
  'America/New_York', 'America/Los_Angeles', 'America/Sao_Paulo', 'America/Santiago', 'Australia/Sydney', 'Australia/Lord_Howe',
  'Pacific/Auckland', 'Pacific/Chatham', 'UTC', 'Etc/GMT-3',
];

describe('time zones from the tz database, as Intl reads them', () => {
  for (const name of ZONES) {
    test(`${name}: the same offset as Intl every other day of 1971–2060 and on both sides of each change`, () => {
      const zone = zoneOf(name);
      expect(zone.source).toBe('tzif');
      const ours = (moment: number) => offsetOf(zone.wallClock(moment), moment);
      const theirs = intlOffset(name);
      const differing: string[] = [];
      const check = (moment: number, expected: number) => {
        if (ours(moment) !== expected) differing.push(`${new Date(moment).toISOString()}: ${ours(moment)} vs Intl ${expected}`);
      };
      // Every other day (no zone changes twice within two days), and each change to the minute:
      // the last minute before it and the first after.
      let changes = 0;
      let before = Date.UTC(1971, 0, 1);
      let offsetBefore = theirs(before);
      for (let moment = before + 2 * DAY; moment < Date.UTC(2061, 0, 1); moment += 2 * DAY) {
        const offset = theirs(moment);
        check(moment, offset);
        if (offset !== offsetBefore) {
          let low = before;
          let high = moment;
          while (high - low > 60_000) {
            const middle = low + Math.floor((high - low) / 120_000) * 60_000;
            if (theirs(middle) === offsetBefore) low = middle;
            else high = middle;
          }
          check(low, theirs(low));
          check(high, theirs(high));
          changes += 1;
        }
        before = moment;
        offsetBefore = offset;
      }
      expect(differing.slice(0, 5)).toEqual([]);
      if (!['UTC', 'Etc/GMT-3', 'Asia/Kolkata'].includes(name)) expect(changes).toBeGreaterThan(0);
    });
  }

  test('a wall clock reads as the day and time the portal and the cards write', () => {
    const wall = zoneOf('Europe/Moscow').wallClock(Date.parse('2026-11-23T21:05:59Z'));
    expect(wall).toEqual({ year: 2026, month: 11, day: 24, hour: 0, minute: 5 });
    expect([isoDay(wall), clockTime(wall)]).toEqual(['2026-11-24', '00:05']);
  });
});

/** A TZif file: transitions in seconds, each with the index of its offset; `version` 0 has no 64-bit part. */
const tzif = (options: { version?: number; transitions?: [number, number][]; offsets: number[]; footer?: string; leaps?: number }): Buffer => {
  const { version = 0x32, transitions = [], offsets, footer = '', leaps = 0 } = options;
  const block = (timeSize: number) => {
    const header = Buffer.alloc(44);
    header.write('TZif', 0, 'latin1');
    header[4] = version;
    [0, 0, leaps, transitions.length, offsets.length, 4].forEach((count, k) => header.writeUInt32BE(count, 20 + k * 4));
    const times = Buffer.alloc(transitions.length * timeSize);
    transitions.forEach(([time], k) => (timeSize === 8 ? times.writeBigInt64BE(BigInt(time), k * 8) : times.writeInt32BE(time, k * 4)));
    const indexes = Buffer.from(transitions.map(([, index]) => index));
    const types = Buffer.alloc(offsets.length * 6);
    offsets.forEach((offset, k) => types.writeInt32BE(offset, k * 6));
    return Buffer.concat([header, times, indexes, types, Buffer.from('XXX\0', 'latin1'), Buffer.alloc(leaps * (timeSize + 4))]);
  };
  if (version === 0) return block(4);
  return Buffer.concat([block(4), block(8), Buffer.from(`\n${footer}\n`, 'latin1')]);
};

describe('TZif files', () => {
  const directory = mkdtempSync(join(tmpdir(), 'zoneinfo-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const write = (name: string, data: Buffer) => {
    mkdirSync(join(directory, name, '..'), { recursive: true });
    writeFileSync(join(directory, name), data);
  };
  const T = 1_800_000_000; // 2027-01-15T08:00:00Z
  const hourAt = (zone: ReturnType<typeof zoneOf>, seconds: number) => zone.wallClock(seconds * 1000).hour;

  test('the offset before the first change, between changes, and the footer after the last', () => {
    write('Test/Footer', tzif({ transitions: [[T, 1]], offsets: [3600, 7200], footer: '<+05>-5' }));
    const zone = zoneOf('Test/Footer', directory);
    expect(zone.source).toBe('tzif');
    expect(hourAt(zone, T - 1)).toBe(8); // 07:59:59 UTC + 1
    expect(hourAt(zone, T)).toBe(13); // the footer from the last change on: +5
  });

  test('a version 1 file: 32-bit times and no footer, the last offset kept', () => {
    write('Test/V1', tzif({ version: 0, transitions: [[T - 3600, 1], [T, 0]], offsets: [0, 3 * 3600] }));
    const zone = zoneOf('Test/V1', directory);
    expect(hourAt(zone, T - 1)).toBe(10);
    expect(hourAt(zone, T + 10 * 365 * 86_400)).toBe(8);
  });

  test('no changes at all: the footer, or else the one offset', () => {
    write('Test/Fixed', tzif({ offsets: [-3 * 3600], footer: '' }));
    expect(hourAt(zoneOf('Test/Fixed', directory), T)).toBe(5);
    expect(parseTzif(tzif({ offsets: [0], footer: '<+04>-4' }))!(T)).toBe(4 * 3600);
  });

  test('files with leap seconds, truncated, corrupt or not TZif are not read', () => {
    expect(parseTzif(tzif({ offsets: [0], leaps: 1 }))).toBeNull();
    expect(parseTzif(tzif({ transitions: [[T, 0]], offsets: [0] }).subarray(0, 60))).toBeNull();
    expect(parseTzif(tzif({ transitions: [[T, 5]], offsets: [0] }))).toBeNull();
    expect(parseTzif(tzif({ offsets: [0], footer: 'not a rule' }))).toBeNull();
    expect(parseTzif(Buffer.from('# tzdb data for fun\n'))).toBeNull();
    expect(parseTzif(tzif({ offsets: [] }))).toBeNull();
  });

  test('a name the files do not have is Intl’s: another spelling works, an unknown name is a RangeError', () => {
    const other = zoneOf('europe/moscow', directory);
    expect(other.source).toBe('intl');
    expect(isoDay(other.wallClock(Date.parse('2026-11-23T21:05:00Z')))).toBe('2026-11-24');
    expect(clockTime(other.wallClock(Date.parse('2026-11-23T21:05:00Z')))).toBe('00:05');
    expect(() => zoneOf('Mars/Olympus_Mons', directory)).toThrow(RangeError);
    write('Test/Leap', tzif({ offsets: [0], leaps: 1 }));
    expect(() => zoneOf('Test/Leap', directory)).toThrow(RangeError);
  });

  test('a name cannot leave the directory, and the database’s other files are not zones', () => {
    write('Secret', tzif({ offsets: [3600] }));
    const inner = join(directory, 'inner');
    mkdirSync(inner);
    expect(() => zoneOf('../Secret', inner)).toThrow(RangeError);
    expect(() => zoneOf('/etc/passwd')).toThrow(RangeError);
    for (const name of ['posix/Europe/Moscow', 'right/Europe/Moscow', 'localtime', 'posixrules', 'Factory', 'zone.tab']) {
      expect(() => zoneOf(name), name).toThrow(RangeError);
    }
  });
});
