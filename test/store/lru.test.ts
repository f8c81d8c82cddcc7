import { describe, expect, it } from 'vitest';
import { createLru } from '../../src/store/lru.ts';

describe('the LRU', () => {
  it('forgets the least recently used entry past its capacity', () => {
    const lru = createLru<number, string>(2);
    lru.set(1, 'a');
    lru.set(2, 'b');
    expect(lru.get(1)).toBe('a');
    lru.set(3, 'c');
    expect([lru.peek(1), lru.peek(2), lru.peek(3), lru.size]).toEqual(['a', undefined, 'c', 2]);
  });

  it('at its edges: a capacity of 1, a value replaced at capacity, a peek that does not refresh, a sweep that deletes', () => {
    const one = createLru<string, number>(1);
    one.set('a', 1);
    one.set('b', 2);
    expect([one.peek('a'), one.peek('b'), one.size]).toEqual([undefined, 2, 1]);
    const lru = createLru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('a', 10); // replaced, not added: nothing forgotten, and "a" is now the newest
    expect([lru.peek('a'), lru.peek('b'), lru.size]).toEqual([10, 2, 2]);
    lru.peek('b');
    lru.set('c', 3); // "b" was only peeked at: the oldest
    expect([lru.peek('a'), lru.peek('b'), lru.peek('c')]).toEqual([10, undefined, 3]);
    // A sweep whose callback deletes the entry itself: "c" is still the oldest left.
    lru.deleteWhere((_value, key) => {
      if (key !== 'a') return false;
      lru.delete(key);
      return true;
    });
    expect([lru.peek('a'), lru.peek('c'), lru.size]).toEqual([undefined, 3, 1]);
    lru.set('d', 4);
    lru.set('e', 5);
    expect([lru.peek('c'), lru.peek('d'), lru.peek('e'), lru.size]).toEqual([undefined, 4, 5, 2]);
  });

  it('moves an entry on a get only when it is not among the newest quarter', () => {
    const lru = createLru<number, number>(8);
    for (let key = 1; key <= 8; key++) lru.set(key, key);
    lru.get(1); // the oldest: moved to the newest end
    lru.get(8); // placed one placement ago, among the newest 2: left where it is
    lru.set(9, 9);
    lru.set(10, 10); // forgets 2 and 3
    lru.get(7); // four placements ago: moved
    for (let key = 11; key <= 14; key++) lru.set(key, key); // forgets 4, 5, 6, then 8 (not moved by its get)
    expect([2, 3, 4, 5, 6, 8].map((key) => lru.peek(key))).toEqual(Array(6).fill(undefined));
    expect([1, 7, 9, 10, 11, 12, 13, 14].map((key) => lru.peek(key))).toEqual([1, 7, 9, 10, 11, 12, 13, 14]);
  });

  it('moves an entry on a get from exactly a quarter of the capacity placed since its own', () => {
    const lru = createLru<number, number>(8);
    for (let key = 1; key <= 8; key++) lru.set(key, key);
    lru.get(7); // one placement ago (8): stays
    lru.get(6); // two placements ago (7, 8): a quarter of 8, moved
    lru.set(9, 9); // forgets 1
    lru.set(10, 10); // forgets 2
    lru.set(11, 11); // forgets 3
    lru.set(12, 12); // forgets 4
    lru.set(13, 13); // forgets 5
    lru.set(14, 14); // forgets 7, left in place by its get, before 8 and 6
    expect([lru.peek(7), lru.peek(8), lru.peek(6)]).toEqual([undefined, 8, 6]);
  });

  it('keeps the order of a reference model over many uses, deletes and clears at capacity', () => {
    const capacity = 50;
    const lru = createLru<number, number>(capacity);
    // The model: keys from the oldest to the newest, and the count of placements at each key's
    // own; a get moves a key only when at least a quarter of the capacity (12) was placed since.
    const model: number[] = [];
    const placedAt = new Map<number, number>();
    let placements = 0;
    const place = (key: number) => {
      if (model.at(-1) === key) return;
      if (model.includes(key)) model.splice(model.indexOf(key), 1);
      model.push(key);
      placedAt.set(key, ++placements);
    };
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (let step = 0; step < 20_000; step++) {
      const key = random(120);
      const op = random(100);
      if (op < 50) {
        lru.set(key, step);
        place(key);
        if (model.length > capacity) model.shift();
      } else if (op < 90) {
        const found = lru.get(key) !== undefined;
        expect(found).toBe(model.includes(key));
        if (found && placements - placedAt.get(key)! >= Math.max(1, Math.floor(capacity / 4))) place(key);
      } else if (op < 99) {
        lru.delete(key);
        if (model.includes(key)) model.splice(model.indexOf(key), 1);
      } else {
        lru.clear();
        model.length = 0;
      }
      expect(lru.size).toBe(model.length);
    }
    expect(model.every((key) => lru.peek(key) !== undefined)).toBe(true);
  });

  it('deletes what a sweep calls expired and keeps the order of the rest', () => {
    const lru = createLru<number, number>(3);
    lru.set(1, 10);
    lru.set(2, 20);
    lru.set(3, 30);
    lru.deleteWhere((value, key) => value === 20 || key === 3);
    expect([lru.peek(1), lru.peek(2), lru.peek(3), lru.size]).toEqual([10, undefined, undefined, 1]);
    lru.set(4, 40);
    lru.set(5, 50);
    lru.set(6, 60);
    // 1 is still the oldest: the first forgotten past the capacity.
    expect([lru.peek(1), lru.peek(4), lru.peek(6), lru.size]).toEqual([undefined, 40, 60, 3]);
  });

  it('tells of each entry forgotten past the capacity, not of those deleted or swept', () => {
    const evicted: Array<[string, number]> = [];
    const lru = createLru<number, string>(2, { onEvict: (value, key) => evicted.push([value, key]) });
    lru.set(1, 'a');
    lru.set(2, 'b');
    lru.delete(2);
    lru.set(3, 'c');
    lru.deleteWhere((value) => value === 'c');
    lru.set(4, 'd');
    lru.set(5, 'e');
    expect(evicted).toEqual([['a', 1]]);
  });
});
