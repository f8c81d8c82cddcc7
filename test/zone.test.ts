import { describe, expect, test } from 'vitest';
import { canonicalZone, clockTime, isoDay, momentOf, nextTimeOfDay, parseZoneName, RUSSIAN_ZONES, zoneOf } from '../src/zone.ts';

const read = (name: string, iso: string): string => {
  const wall = zoneOf(name).wallClock(Date.parse(iso));
  return `${isoDay(wall)} ${clockTime(wall)}`;
};

describe('wall clocks in a time zone', () => {
  test('a wall clock reads as the day and time the portal and the cards write', () => {
    const wall = zoneOf('Europe/Moscow').wallClock(Date.parse('2026-11-23T21:05:59Z'));
    expect(wall).toEqual({ year: 2026, month: 11, day: 24, hour: 0, minute: 5 });
    expect([isoDay(wall), clockTime(wall)]).toEqual(['2026-11-24', '00:05']);
  });

  test("Russia's zones all year, and zones that change their clocks, on both sides of the change", () => {
    expect(read('Europe/Kaliningrad', '2026-07-01T12:00:00Z')).toBe('2026-07-01 14:00');
    expect(read('Asia/Yekaterinburg', '2026-01-01T20:00:00Z')).toBe('2026-01-02 01:00');
    expect(read('Asia/Kamchatka', '2026-07-01T12:30:00Z')).toBe('2026-07-02 00:30');
    // Berlin leaves daylight time at 01:00 UTC on 2026-10-25.
    expect(read('Europe/Berlin', '2026-10-25T00:59:00Z')).toBe('2026-10-25 02:59');
    expect(read('Europe/Berlin', '2026-10-25T01:00:00Z')).toBe('2026-10-25 02:00');
    // Half and three-quarter hours; southern daylight time.
    expect(read('Asia/Kolkata', '2026-03-01T00:00:00Z')).toBe('2026-03-01 05:30');
    expect(read('Pacific/Chatham', '2026-01-01T00:00:00Z')).toBe('2026-01-01 13:45');
    expect(read('Pacific/Chatham', '2026-07-01T00:00:00Z')).toBe('2026-07-01 12:45');
  });

  test('a name in another spelling is the same zone; an unknown name is a RangeError', () => {
    expect(read('europe/moscow', '2026-11-23T21:05:00Z')).toBe('2026-11-24 00:05');
    expect(read('UTC', '2026-11-23T21:05:00Z')).toBe('2026-11-23 21:05');
    for (const name of ['Mars/Olympus_Mons', '../Europe/Moscow', '/etc/passwd', '']) expect(() => zoneOf(name), name).toThrow(RangeError);
  });
});

describe('moments of wall clocks, and names', () => {
  const iso = (moment: number) => new Date(moment).toISOString();

  test('the moment a wall clock shows a time: once a day, in the zone; a skipped time lands after the gap, a repeated one on the first', () => {
    expect(iso(momentOf(zoneOf('Europe/Moscow'), { year: 2026, month: 11, day: 24, hour: 9, minute: 0 }))).toBe('2026-11-24T06:00:00.000Z');
    expect(iso(momentOf(zoneOf('Asia/Kamchatka'), { year: 2026, month: 1, day: 1, hour: 0, minute: 30 }))).toBe('2025-12-31T12:30:00.000Z');
    // Berlin skips 02:00–03:00 on 2026-03-29 and repeats 02:00–03:00 on 2026-10-25.
    expect(iso(momentOf(zoneOf('Europe/Berlin'), { year: 2026, month: 3, day: 29, hour: 2, minute: 30 }))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(momentOf(zoneOf('Europe/Berlin'), { year: 2026, month: 10, day: 25, hour: 2, minute: 30 }))).toBe('2026-10-25T00:30:00.000Z');
  });

  test('the next time of day after a moment: today when it is still ahead, else tomorrow', () => {
    const at = Date.parse('2026-11-23T11:05:00Z'); // 16:05 in Yekaterinburg
    expect(iso(nextTimeOfDay(zoneOf('Asia/Yekaterinburg'), 9 * 60, at))).toBe('2026-11-24T04:00:00.000Z');
    expect(iso(nextTimeOfDay(zoneOf('Asia/Yekaterinburg'), 20 * 60, at))).toBe('2026-11-23T15:00:00.000Z');
    expect(iso(nextTimeOfDay(zoneOf('Asia/Yekaterinburg'), 16 * 60 + 5, at))).toBe('2026-11-24T11:05:00.000Z');
    expect(iso(nextTimeOfDay(zoneOf('Europe/Moscow'), 9 * 60, at))).toBe('2026-11-24T06:00:00.000Z');
  });

  test('an IANA name as typed, in Intl’s spelling; anything else is none', () => {
    expect(['Asia/Yekaterinburg', ' asia/yekaterinburg ', 'UTC', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires'].map(parseZoneName)).toEqual([
      'Asia/Yekaterinburg',
      'Asia/Yekaterinburg',
      'UTC',
      'Etc/GMT+5',
      // Whichever of its names this ICU calls the zone by.
      canonicalZone('America/Argentina/Buenos_Aires'),
    ]);
    for (const name of ['Mars/Base', '+05:00', '../Europe/Moscow', '', 'Europe/Moscow; DROP', 'x'.repeat(65)]) expect(parseZoneName(name), name).toBeUndefined();
    expect(canonicalZone('europe/moscow')).toBe('Europe/Moscow');
    expect(RUSSIAN_ZONES.map(canonicalZone)).toEqual([...RUSSIAN_ZONES]);
  });
});
