import { readFileSync } from 'node:fs';
import { frameName } from './profile-frames.ts';
type N = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
const p = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: N[]; samples: number[]; timeDeltas: number[] };
const target = process.argv[3]!; const depth = Number(process.argv[4] ?? 4);
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const acc = new Map<string, number>();
p.samples.forEach((id, i) => {
  const d = p.timeDeltas[i] ?? 0;
  let n: N | undefined = byId.get(id)!;
  // find target in stack
  let cur: N | undefined = n;
  while (cur && cur.callFrame.functionName !== target) cur = byId.get(parent.get(cur.id)!);
  if (!cur) return;
  const chain: string[] = [];
  let up = byId.get(parent.get(cur.id)!);
  for (let k = 0; k < depth && up; k++) { chain.push(frameName(up.callFrame as never)); up = byId.get(parent.get(up.id)!); }
  const key = chain.join(' < ');
  acc.set(key, (acc.get(key) ?? 0) + d);
});
for (const [k, v] of [...acc].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`);
