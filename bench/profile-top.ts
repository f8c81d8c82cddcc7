import { readFileSync } from 'node:fs';
import { frameFile, frameName, isOwnCode, profileFiles, type CallFrame } from './profile-frames.ts';

// node bench/profile-top.ts <dir or .cpuprofile> [n]: the functions with the most self time in a
// V8 CPU profile (--cpu-prof), and the files they are in.

type Node = { id: number; callFrame: CallFrame; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const target = process.argv[2] ?? 'bench/profiles';
const count = Number(process.argv[3] ?? 25);
const files = profileFiles(target, '.cpuprofile');
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const perFile = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    const key = frameName(node.callFrame);
    const where = frameFile(node.callFrame);
    const { functionName } = node.callFrame;
    self.set(key, (self.get(key) ?? 0) + delta);
    const module = where.startsWith('node_modules/') ? where.split('/').slice(0, 2).join('/') : where.split(':')[0] || functionName;
    perFile.set(module, (perFile.get(module) ?? 0) + delta);
    total += delta;
  });
  // Inclusive time: each sample counted once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      const key = frameName(node.callFrame);
      if (isOwnCode(key) && !seen.has(key)) {
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + delta);
      }
    }
  });
  const top = (map: Map<string, number>) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
  process.stdout.write(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n-- self time by function\n${top(self).join('\n')}\n-- by module/file\n${top(perFile).slice(0, 15).join('\n')}\n-- inclusive, the bot's own functions\n${top(inclusive).join('\n')}\n\n`);
}
