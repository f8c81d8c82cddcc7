import { describe, expect, it } from 'vitest';
import { createMemoryQueryStore, queryKey } from '../../src/bot/query-store.ts';
import type { Query } from '../../src/portal/query.ts';

const query = (value: string): Query => ({ resource: 'specification', filter: 'CONTRACT_NUMBER', value });

describe('memory query store', () => {
  it('gives the same short key to the same query and loads it back', () => {
    const store = createMemoryQueryStore();
    const key = store.save(query('ДП-77/2026'));
    expect(key).toMatch(/^[\w-]{16}$/);
    expect(store.save(query('ДП-77/2026'))).toBe(key);
    expect(store.load(key)).toEqual(query('ДП-77/2026'));
    expect(queryKey(query('ДП-78/2026'))).not.toBe(key);
    expect(store.load('unknown')).toBeUndefined();
  });

  it('stays within its capacity, forgetting the least recently used', () => {
    const store = createMemoryQueryStore(3);
    const [a, b, c] = ['a', 'b', 'c'].map((value) => store.save(query(value)));
    store.load(a!);
    store.save(query('d'));
    expect(store.load(b!)).toBeUndefined();
    expect(store.load(a!)).toEqual(query('a'));
    expect(store.load(c!)).toEqual(query('c'));
  });
});
