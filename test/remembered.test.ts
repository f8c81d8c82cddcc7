import { describe, expect, it } from 'vitest';
import { remembered, rememberedFor } from '../src/remembered.ts';

describe('remembered', () => {
  it('computes a key once, and drops every result at once when full', () => {
    const computed: number[] = [];
    const square = remembered((n: number) => (computed.push(n), n * n), 2);
    expect([square(2), square(2), square(3)]).toEqual([4, 4, 9]);
    square(4); // full: 2 and 3 are dropped
    square(2);
    expect(computed).toEqual([2, 3, 4, 2]);
  });
});

describe('rememberedFor', () => {
  it('answers a value for ttlMs after it was set, false as well as true, and nothing after', () => {
    const clock = { ms: 0 };
    const memo = rememberedFor<number, boolean>({ ttlMs: 10_000, max: 10, now: () => clock.ms });
    memo.set(1, false);
    clock.ms = 9_999;
    expect(memo.get(1)).toBe(false);
    clock.ms = 10_000;
    expect(memo.get(1)).toBeUndefined();
    expect(memo.get(2)).toBeUndefined();
    // Set again: its time starts again.
    memo.set(1, true);
    clock.ms = 19_999;
    expect(memo.get(1)).toBe(true);
  });

  it('drops every value at once when it holds `max` of them', () => {
    const memo = rememberedFor<string, string>({ ttlMs: 60_000, max: 2, now: () => 0 });
    memo.set('a', 'A');
    memo.set('b', 'B');
    memo.set('c', 'C');
    expect([memo.get('a'), memo.get('b'), memo.get('c')]).toEqual([undefined, undefined, 'C']);
  });
});
