import { describe, expect, it } from 'vitest';
import { hourIn, isQuiet } from '../../src/watch/quiet-hours.ts';

const at = (iso: string) => Date.parse(iso);

describe('quiet hours', () => {
  it('reads the hour in the users’ time zone', () => {
    expect(hourIn(at('2026-11-23T18:30:00Z'), 'Europe/Moscow')).toBe(21);
    expect(hourIn(at('2026-11-23T21:00:00Z'), 'Europe/Moscow')).toBe(0);
  });

  it('wraps midnight for 21-8, from included, to excluded', () => {
    const quiet = { from: 21, to: 8 };
    expect(isQuiet(at('2026-11-23T17:59:00Z'), quiet, 'Europe/Moscow')).toBe(false); // 20:59
    expect(isQuiet(at('2026-11-23T18:00:00Z'), quiet, 'Europe/Moscow')).toBe(true); // 21:00
    expect(isQuiet(at('2026-11-24T02:00:00Z'), quiet, 'Europe/Moscow')).toBe(true); // 05:00
    expect(isQuiet(at('2026-11-24T05:00:00Z'), quiet, 'Europe/Moscow')).toBe(false); // 08:00
  });

  it('keeps a range within a day, and nothing is quiet without QUIET_HOURS', () => {
    expect(isQuiet(at('2026-11-23T10:00:00Z'), { from: 12, to: 14 }, 'UTC')).toBe(false);
    expect(isQuiet(at('2026-11-23T13:59:00Z'), { from: 12, to: 14 }, 'UTC')).toBe(true);
    expect(isQuiet(at('2026-11-23T13:59:00Z'), undefined, 'UTC')).toBe(false);
  });
});
