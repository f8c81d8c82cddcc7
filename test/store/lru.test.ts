import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createLru } from '../../src/store/lru.ts';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const heapAfterCollection = () => {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
};

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

  it('keeps the order of a reference model over many uses, deletes and clears at capacity', () => {
    const capacity = 50;
    const lru = createLru<number, number>(capacity);
    const model: number[] = [];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (let step = 0; step < 20_000; step++) {
      const key = random(120);
      const op = random(100);
      if (op < 50) {
        lru.set(key, step);
        if (model.includes(key)) model.splice(model.indexOf(key), 1);
        model.push(key);
        if (model.length > capacity) model.shift();
      } else if (op < 90) {
        const found = lru.get(key) !== undefined;
        expect(found).toBe(model.includes(key));
        if (found) model.push(...model.splice(model.indexOf(key), 1));
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

  it('holds no more memory after a million uses below its capacity than after the first thousand', () => {
    // A cache of 1,000 users that never fills: a Map re-inserted on use and read through a
    // long-lived iterator kept every table V8 rehashed since (57 KB each, about 1,000 of them here).
    const lru = createLru<number, { id: number }>(50_000);
    for (let id = 0; id < 1_000; id++) lru.set(id, { id });
    for (let use = 0; use < 1_000; use++) lru.get(use % 1_000);
    const before = heapAfterCollection();
    for (let use = 0; use < 1_000_000; use++) lru.get((use * 7) % 1_000);
    const grown = heapAfterCollection() - before;
    expect(lru.size).toBe(1_000);
    expect(grown).toBeLessThan(2 * 1024 * 1024);
  });
});

