import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';

// One process of the race in watches.test.ts: claims targets one at a time until none
// is left, and reports the keys it got.

const { dataDir, owner, now } = workerData as { dataDir: string; owner: string; now: number };
const store = openSqliteStore({ dataDir });
const keys: string[] = [];
for (;;) {
  const claimed = store.watches.claimDue(owner, now, 60_000, 1);
  if (claimed.length === 0) break;
  keys.push(...claimed.map((target) => target.key));
}
store.close();
parentPort?.postMessage(keys);
