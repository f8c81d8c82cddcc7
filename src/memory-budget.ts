// What records read in bulk (an export's, a watch poll's) may take of the heap: a byte budget
// derived from V8's heap limit at start (what a page costs against it: src/portal/page-cost.ts).

/** Of the heap limit: all exports' records together; all watch polls' (and /watch's) together. */
export const EXPORT_HEAP_SHARE = 3 / 8;
export const WATCH_HEAP_SHARE = 1 / 8;

// An export's page: held 1.2–2.3× its answer bytes, plus ExcelJS's shared strings per distinct text (docs/performance.md, "Memory").
export const EXPORT_HEAP_PER_ANSWER_BYTE = 3;
export const EXPORT_HEAP_PER_DISTINCT_STRING = 400;
// A watch poll holds the records, the new snapshot and its JSON, the stored one read back: 4.8–8.4× (docs/performance.md, "Memory").
export const WATCH_HEAP_PER_ANSWER_BYTE = 10;

/** Taken: it fits; over: past the lease's own cap; busy: the others under way hold the rest of the budget. */
export type Admission = 'ok' | 'over' | 'busy';

/** One user of a budget (an export, a poll): what it holds, up to its cap. */
export type MemoryLease = {
  /** Counts `bytes` more when they fit the lease and the budget; nothing is counted otherwise. */
  take(bytes: number): Admission;
  /** Gives back all it holds (it may take again). */
  free(): void;
};

export type MemoryBudget = { lease(): MemoryLease; used(): number };

/** `totalBytes` shared by the leases under way, each holding at most `perLeaseBytes`. */
export const createMemoryBudget = (totalBytes: number, perLeaseBytes: number): MemoryBudget => {
  let used = 0;
  return {
    used: () => used,
    lease: () => {
      let held = 0;
      return {
        take(bytes) {
          if (held + bytes > perLeaseBytes) return 'over';
          if (used + bytes > totalBytes) return 'busy';
          held += bytes;
          used += bytes;
          return 'ok';
        },
        free() {
          used -= held;
          held = 0;
        },
      };
    },
  };
};

/** Exports: each of the `concurrency` running at once holds its equal share, so none waits for another's. */
export const createExportMemory = (totalBytes: number, concurrency: number): MemoryBudget =>
  createMemoryBudget(totalBytes, totalBytes / concurrency);

/** Watch polls and /watch's first reading: one watched query takes at most half, so two polls at once fit. */
export const createWatchMemory = (totalBytes: number): MemoryBudget => createMemoryBudget(totalBytes, totalBytes / 2);
