import { EXPORT_HEAP_PER_ANSWER_BYTE, EXPORT_HEAP_PER_DISTINCT_STRING, WATCH_HEAP_PER_ANSWER_BYTE } from '../memory-budget.ts';
import { pageBytes } from './resilience/cache.ts';

// What a page read costs against a memory budget (src/memory-budget.ts), from the bytes of its answer.

/** What a page costs a watch poll. */
export const watchPageCost = (page: object): number => WATCH_HEAP_PER_ANSWER_BYTE * pageBytes(page);

/** What each page costs an export: its bytes, and the strings no earlier page of it had (the workbook keeps each once). */
export const createExportPageCost = (): ((page: object) => number) => {
  const seen = new Set<string>();
  const distinct = (value: unknown): number => {
    if (typeof value === 'string') return seen.has(value) ? 0 : (seen.add(value), 1);
    if (value === null || typeof value !== 'object') return 0;
    let count = 0;
    for (const item of Array.isArray(value) ? value : Object.values(value)) count += distinct(item);
    return count;
  };
  return (page) => EXPORT_HEAP_PER_ANSWER_BYTE * pageBytes(page) + EXPORT_HEAP_PER_DISTINCT_STRING * distinct(page);
};
