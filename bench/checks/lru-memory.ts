import { createLru } from '../../src/store/lru.ts';

// What the LRU (src/store/lru.ts) holds after a million uses below its capacity, against after
// the first thousand: a cache of 1,000 users that never fills. Run with --expose-gc; prints one
// line of JSON (bench/checks.ts).

const collect = globalThis.gc ?? (() => {
  throw new Error('run with --expose-gc');
});
const heapAfterCollection = () => {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
};

const lru = createLru<number, { id: number }>(50_000);
for (let id = 0; id < 1_000; id++) lru.set(id, { id });
for (let use = 0; use < 1_000; use++) lru.get(use % 1_000);
const before = heapAfterCollection();
for (let use = 0; use < 1_000_000; use++) lru.get((use * 7) % 1_000);
const grown = heapAfterCollection() - before;
if (lru.size !== 1_000) throw new Error(`the LRU holds ${lru.size} entries, not 1,000`);
process.stdout.write(JSON.stringify({ grownMb: grown / 1024 / 1024 }));
