import { readFileSync } from 'node:fs';
import { frameName, isOwnCode, profileFiles, type CallFrame } from './profile-frames.ts';

// node bench/heap-top.ts <dir or .heapprofile> [n]: where a sampling heap profile saw memory
// allocated (bench/alloc-profile.ts keeps the samples of collected objects: what each function
// allocated over the run, the work garbage collection follows), by function and, for the bot's own
// functions, with their callees.

type Node = { callFrame: CallFrame; selfSize: number; children: Node[] };

const target = process.argv[2] ?? 'bench/profiles';
const count = Number(process.argv[3] ?? 25);
const files = profileFiles(target, '.heapprofile');
for (const file of files) {
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: Node };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  const walk = (node: Node, stack: Set<string>): number => {
    const key = frameName(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    const inner = new Set(stack).add(key);
    let sum = node.selfSize;
    for (const child of node.children) sum += walk(child, inner);
    if (isOwnCode(key) && !stack.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
    return sum;
  };
  walk(head, new Set());
  const top = (map: Map<string, number>) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, bytes]) => `${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${(bytes / 1048576).toFixed(1).padStart(7)} MB  ${key}`);
  process.stdout.write(`${file}: ${(total / 1048576).toFixed(0)} MB sampled\n-- allocated, by function\n${top(self).join('\n')}\n-- inclusive, the bot's own functions\n${top(inclusive).join('\n')}\n\n`);
}
