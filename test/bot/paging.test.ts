import { describe, expect, it } from 'vitest';
import { lastPageOffset, pageNavigation } from '../../src/bot/paging.ts';

describe('pageNavigation', () => {
  it('knows both ends', () => {
    expect(pageNavigation({ offset: 0, limit: 5, total: 23 })).toEqual({ prev: undefined, next: 5, page: 1, pages: 5 });
    expect(pageNavigation({ offset: 10, limit: 5, total: 23 })).toEqual({ prev: 5, next: 15, page: 3, pages: 5 });
    expect(pageNavigation({ offset: 20, limit: 5, total: 23 })).toEqual({ prev: 15, next: undefined, page: 5, pages: 5 });
    expect(pageNavigation({ offset: 0, limit: 5, total: 5 })).toEqual({ prev: undefined, next: undefined, page: 1, pages: 1 });
    expect(pageNavigation({ offset: 0, limit: 20, total: 0 })).toEqual({ prev: undefined, next: undefined, page: 1, pages: 1 });
  });

  it('finds the last page', () => {
    expect(lastPageOffset(23, 5)).toBe(20);
    expect(lastPageOffset(20, 5)).toBe(15);
    expect(lastPageOffset(0, 10)).toBe(0);
  });
});
