import { describe, expect, it } from 'vitest';
import { contentKey, shortHash } from '../src/short-hash.ts';

describe('content keys', () => {
  it('are the short hash of their content, at each length, however often asked', () => {
    for (let round = 0; round < 3; round++) {
      expect(contentKey('0007300100', 6)).toBe(shortHash('0007300100', 6));
      expect(contentKey('0007300100', 16)).toBe(shortHash('0007300100', 16));
      expect(contentKey('["order","SAP_ID","1"]', 16)).toBe(shortHash('["order","SAP_ID","1"]', 16));
    }
    expect(contentKey('0007300100', 6)).toHaveLength(6);
    expect(contentKey('0007300100', 16).startsWith(contentKey('0007300100', 6))).toBe(true);
  });

  it('stay right past the bound of what is remembered', () => {
    const texts = Array.from({ length: 5_000 }, (_, index) => `record ${index}`);
    const first = texts.map((text) => contentKey(text, 6));
    expect(texts.map((text) => contentKey(text, 6))).toEqual(first);
    expect(first).toEqual(texts.map((text) => shortHash(text, 6)));
  });
});
