import { describe, expect, it } from 'vitest';
import { createMemoryLimits } from '../../../src/store/sqlite/limits.ts';

const T0 = Date.UTC(2026, 0, 1);

describe('the limits in memory (the sqlite store)', () => {
  it('forgets the oldest keys past its bound, and only those', () => {
    const limits = createMemoryLimits({ maxKeys: 3 });
    for (const userId of [1, 2, 3]) limits.hit(userId, T0, 60_000);
    limits.hit(4, T0 + 1, 60_000);
    expect(limits.hit(3, T0 + 2, 60_000)).toBe(2);
    expect(limits.hit(4, T0 + 2, 60_000)).toBe(2);
    // User 1 was the oldest: forgiven. Counted again, it makes user 2 the oldest, forgotten in turn.
    expect(limits.hit(1, T0 + 2, 60_000)).toBe(1);
    expect(limits.hit(2, T0 + 2, 60_000)).toBe(1);

    const quiet = createMemoryLimits({ maxKeys: 2 });
    expect(quiet.take('x', T0, 60_000)).toBe(true);
    expect(quiet.take('y', T0, 60_000)).toBe(true);
    expect(quiet.take('z', T0, 60_000)).toBe(true);
    expect(quiet.take('y', T0 + 1, 60_000)).toBe(false);
    expect(quiet.take('x', T0 + 1, 60_000)).toBe(true);
  });

  it('takes no longer per call with 100,000 keys held, none of them over', () => {
    const limits = createMemoryLimits();
    for (let i = 0; i < 100_000; i += 1) limits.hit(i, T0, 3_600_000);
    const started = performance.now();
    // A walk through the map on each call would be 10^9 steps here: many seconds.
    for (let i = 0; i < 10_000; i += 1) {
      limits.hit(i, T0 + 1, 3_600_000);
      limits.take(`refusal:${i}`, T0 + 1, 3_600_000);
    }
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(limits.hit(0, T0 + 2, 3_600_000)).toBe(3);
  });
});
