import { describe, expect, it } from 'vitest';
import { EXPORT_HEAP_PER_ANSWER_BYTE, EXPORT_HEAP_PER_DISTINCT_STRING, WATCH_HEAP_PER_ANSWER_BYTE } from '../../src/memory-budget.ts';
import { createExportPageCost, watchPageCost } from '../../src/portal/page-cost.ts';
import { pageBytes } from '../../src/portal/resilience/cache.ts';

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
