import { describe, expect, test } from 'vitest';
import { clockTime, isoDay, zoneOf } from '../src/zone.ts';

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
