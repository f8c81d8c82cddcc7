import { describe, expect, it } from 'vitest';
import {
  createExportMemory,
  createExportPageCost,
  createMemoryBudget,
  createWatchMemory,
  EXPORT_HEAP_PER_ANSWER_BYTE,
  EXPORT_HEAP_PER_DISTINCT_STRING,
  WATCH_HEAP_PER_ANSWER_BYTE,
  watchPageCost,
} from '../src/memory-budget.ts';
import { pageBytes } from '../src/portal/resilience/cache.ts';

describe('a memory budget', () => {
  it('lets a lease take up to its own cap, and no more ("over", nothing counted)', () => {
    const budget = createMemoryBudget(100, 40);
    const lease = budget.lease();
    expect(lease.take(30)).toBe('ok');
    expect(lease.take(11)).toBe('over');
    expect(lease.take(10)).toBe('ok');
    expect(budget.used()).toBe(40);
  });

  it('is shared: a lease finds it "busy" while the others hold the rest, and free gives it back', () => {
    const budget = createMemoryBudget(100, 60);
    const [first, second] = [budget.lease(), budget.lease()];
    expect(first.take(60)).toBe('ok');
    expect(second.take(50)).toBe('busy');
    expect(second.take(40)).toBe('ok');
    first.free();
    first.free();
    expect(budget.used()).toBe(40);
    expect(second.take(20)).toBe('ok');
    second.free();
    expect(budget.used()).toBe(0);
  });

  it('gives each of the exports running at once an equal share, and a watch reading half of the watches’', () => {
    const exports = createExportMemory(90, 4);
    const leases = Array.from({ length: 4 }, () => exports.lease());
    for (const lease of leases) expect(lease.take(22.5)).toBe('ok');
    expect(leases[0]!.take(1)).toBe('over');
    const watches = createWatchMemory(30);
    const [poll, other] = [watches.lease(), watches.lease()];
    expect(poll.take(16)).toBe('over');
    expect(poll.take(15)).toBe('ok');
    expect(other.take(15)).toBe('ok');
    expect(watches.lease().take(1)).toBe('busy');
  });
});

describe('what a page costs', () => {
  const page = (names: string[]) => ({ items: names.map((name, k) => ({ SAP_ID: String(k), POSITION: [{ MATERIAL_NAME: name, QUANTITY: 1 }] })), total: 99, limit: 20, offset: 0 });

  it('a watch poll: ten times the bytes of the answer', () => {
    const one = page(['Труба 530х8']);
    expect(WATCH_HEAP_PER_ANSWER_BYTE).toBe(10);
    expect(watchPageCost(one)).toBe(10 * pageBytes(one));
  });

  it('an export: three times the bytes, and each string no earlier page of the export had', () => {
    const cost = createExportPageCost();
    const first = page(['Труба 530х8', 'Труба 530х8', 'Отвод 90°']);
    // SAP_IDs "0", "1", "2" and two distinct names.
    expect(cost(first)).toBe(EXPORT_HEAP_PER_ANSWER_BYTE * pageBytes(first) + EXPORT_HEAP_PER_DISTINCT_STRING * 5);
    const second = page(['Труба 530х8', 'Заглушка']);
    // "0" and "1" and the pipe were counted already: only the cap is new.
    expect(cost(second)).toBe(EXPORT_HEAP_PER_ANSWER_BYTE * pageBytes(second) + EXPORT_HEAP_PER_DISTINCT_STRING * 1);
    // Another export counts afresh.
    expect(createExportPageCost()(second)).toBe(EXPORT_HEAP_PER_ANSWER_BYTE * pageBytes(second) + EXPORT_HEAP_PER_DISTINCT_STRING * 4);
  });
});
