import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Preloaded into a benchmarked bot (node --import bench/alloc-profile.ts): V8's sampling heap
// profiler with the samples of collected objects kept, so the profile is what each function
// allocated over the run (what garbage collection works through), not only what is still alive
// as `--heap-prof` gives. Written to ALLOC_PROFILE_DIR after ALLOC_PROFILE_MS.

const dir = process.env.ALLOC_PROFILE_DIR ?? '.';
const ms = Number(process.env.ALLOC_PROFILE_MS ?? 20_000);
const session = new Session();
session.connect();
session.post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
setTimeout(() => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) return process.stderr.write(`allocation profile: ${error.message}\n`);
    writeFileSync(join(dir, `alloc-${process.pid}.heapprofile`), JSON.stringify(result.profile));
    session.disconnect();
  });
}, ms).unref();
