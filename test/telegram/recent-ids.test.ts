import { describe, expect, it } from 'vitest';
import { createRecentIds } from '../../src/telegram/recent-ids.ts';

describe('the recent update ids (a webhook handles each once)', () => {
  it('refuses an id among the last ones and forgets the oldest past its capacity, round after round', () => {
    const ids = createRecentIds(3);
    expect([1, 2, 3].map((id) => ids.add(id))).toEqual([true, true, true]);
    expect(ids.add(2)).toBe(false);
    expect(ids.add(4)).toBe(true); // 1 is forgotten
    expect(ids.add(1)).toBe(true); // 2 is forgotten
    expect([ids.add(3), ids.add(4), ids.add(1)]).toEqual([false, false, false]);
    expect(ids.add(2)).toBe(true); // 3 is forgotten
    expect(ids.add(3)).toBe(true); // 4 is forgotten
    expect([ids.add(1), ids.add(2), ids.add(3), ids.add(4)]).toEqual([false, false, false, true]);
  });

  it('remembers exactly the last `capacity` ids after many rounds', () => {
    const ids = createRecentIds(1_000);
    for (let id = 0; id < 10_500; id += 1) ids.add(id);
    expect(ids.add(9_500)).toBe(false);
    expect(ids.add(9_499)).toBe(true);
  });
});
