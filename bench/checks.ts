import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { machine } from './proc.ts';
import type { Markers } from './sections.ts';
import { startArgs } from '../test/support/start-command.ts';
import type { ExportFigures } from './checks/large-export.ts';

// `npm run bench -- --checks`: what V8 and the garbage collector do under the start command's
// flags, and the memory of the large operations, each in a fresh node process. Figures that move
// with Node's releases, so they live here and not in npm test; docs/performance.md says why each
// matters. Each has the bound it was measured against, so a run says whether it still holds.

export const CHECKS_MARKERS: Markers = { begin: '<!-- checks bench: written by `npm run bench -- --checks`, kept by the other runs -->', end: '<!-- /checks bench -->' };

/** `met` is left out for a figure kept for the record, with no bound. */
export type CheckResult = { check: string; figure: string; bound: string; met?: boolean };

/** node with `args` in `root`, with only PATH from the environment; its standard output once it exited 0. */
const runNode = (root: string, args: string[]): string => {
  const run = spawnSync(process.execPath, args, { cwd: root, env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`node ${args.filter((arg) => !arg.includes('\n')).join(' ')} exited ${run.status ?? run.signal}:\n${run.stderr}`);
  return run.stdout;
};

/** The start command's V8 flags, without the entry point. */
const startFlags = (): string[] => startArgs().slice(0, -1);

/**
 * 200 requests through undici to a local server, so that llhttp (WebAssembly) parses 200 answers.
 * Plain JavaScript: a .ts file would bring Node's type stripper, WebAssembly too.
 */
const WASM_PROBE = `
const require = process.getBuiltinModule('node:module').createRequire(process.argv[1]);
const { createServer } = process.getBuiltinModule('node:http');
const { Agent } = require('undici');
const server = createServer((req, res) => { req.resume(); req.on('end', () => res.end('{"ok":true}')); });
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const agent = new Agent();
for (let i = 0; i < 200; i++) await (await agent.request({ origin: 'http://127.0.0.1:' + server.address().port, path: '/', method: 'GET' })).body.text();
await agent.close();
server.close();
`;

/** WebAssembly functions each of V8's compilers compiled in the probe, with a tiering budget of 1 (the first call tiers up, as a long run does). */
const wasmCompiles = (root: string, flags: string[]) => {
  const args = [...flags, '--trace-wasm-compilation-times', '--wasm-tiering-budget=1', '--input-type=module', '-e', WASM_PROBE, join(root, 'package.json')];
  const lines = runNode(root, args).split('\n');
  const count = (compiler: string) => lines.filter((line) => line.includes(`using ${compiler},`)).length;
  return { liftoff: count('Liftoff'), turbofan: count('TurboFan') };
};

/** Object literals from one site, most kept alive while the young generation is at its largest: what makes V8 pretenure a site. */
const PRETENURE_PROBE = `
const keep = [];
const make = (i) => ({ id: i, tags: [i, i + 1], name: 'n' + i });
for (let round = 0; round < 1000; round++) {
  for (let i = 0; i < 5000; i++) keep.push(make(i));
  if (keep.length > 400000) keep.length = 0;
}
`;

/** Decisions to pretenure an allocation site V8 traced in the probe; the young generation starts at its largest, where V8 decides. */
const pretenured = (root: string, flags: string[]): number => {
  const largest = flags.find((flag) => flag.startsWith('--max-semi-space-size='))?.split('=')[1] ?? '16';
  const args = [...flags, `--min-semi-space-size=${largest}`, '--trace-pretenuring-statistics', '--input-type=module', '-e', PRETENURE_PROBE];
  return runNode(root, args)
    .split('\n')
    .filter((line) => line.includes('=> tenure')).length;
};

/**
 * 6,000 requests, 3 at a time, to a server in the same process (after 300 to warm up), through
 * undici's `request` or through node:http; V8's GC trace (--trace-gc-nvp) from then on.
 */
const PROMOTION_PROBE = `
const require = process.getBuiltinModule('node:module').createRequire(process.argv[1]);
const http = process.getBuiltinModule('node:http');
const v8 = process.getBuiltinModule('node:v8');
const { Agent } = require('undici');
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end(JSON.stringify({ ok: true, result: { text: 'x'.repeat(800) } }))); });
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;
const agent = new Agent();
const keepAlive = new http.Agent({ keepAlive: true });
const viaHttp = () => new Promise((resolve, reject) => {
  const req = http.request({ port, host: '127.0.0.1', path: '/', method: 'POST', agent: keepAlive }, (res) => {
    let text = '';
    res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(text)).on('error', reject);
  });
  req.on('error', reject).end('{"chat_id":1}');
});
const send = {
  undici: async () => (await agent.request({ origin: 'http://127.0.0.1:' + port, path: '/', method: 'POST', body: '{"chat_id":1}' })).body.text(),
  http: viaHttp,
}[process.argv[2]];
const worker = async (count) => { for (let i = 0; i < count; i++) JSON.parse(await send()); };
await Promise.all([worker(100), worker(100), worker(100)]);
v8.setFlagsFromString('--trace-gc-nvp');
await Promise.all([worker(2_000), worker(2_000), worker(2_000)]);
await agent.close();
keepAlive.destroy();
server.close();
`;

/** Of what the heap allocated between the probe's scavenges, the share they promoted to the old generation. */
const promotedShare = (root: string, client: 'undici' | 'http'): number => {
  const trace = runNode(root, [...startFlags(), '--input-type=module', '-e', PROMOTION_PROBE, join(root, 'package.json'), client]);
  const fields = (line: string) => Object.fromEntries(line.split(' ').map((pair) => pair.split('=')));
  const scavenges = trace
    .split('\n')
    .filter((line) => line.includes(' gc=s '))
    .map(fields);
  const sum = (key: string) => scavenges.reduce((total, entry) => total + Number(entry[key]), 0);
  return sum('promoted') / sum('allocated');
};

const json = <T>(root: string, args: string[]): T => JSON.parse(runNode(root, args).trim().split('\n').at(-1) ?? '') as T;

const pct = (share: number) => `${(100 * share).toFixed(1)} %`;

export const runChecks = (root: string, log: (line: string) => void): CheckResult[] => {
  const flags = startFlags();
  const results: CheckResult[] = [];
  const add = (result: CheckResult) => {
    log(`  ${result.check}: ${result.figure} (${result.met === undefined ? '' : result.met ? 'holds: ' : 'DOES NOT HOLD: '}${result.bound})`);
    results.push(result);
  };

  log('WebAssembly tiering (undici\'s llhttp)…');
  const tiering = wasmCompiles(root, flags);
  const liftoffOnly = wasmCompiles(root, [...flags, '--no-wasm-dynamic-tiering', '--no-wasm-tier-up']);
  add({
    check: 'llhttp’s WebAssembly compilations under the start command’s flags (TurboFan’s memory stays in worker threads’ arenas)',
    figure: `${tiering.liftoff} Liftoff / ${tiering.turbofan} TurboFan; with \`--no-wasm-dynamic-tiering --no-wasm-tier-up\` ${liftoffOnly.liftoff} / ${liftoffOnly.turbofan}`,
    bound: 'the two flags keep it on Liftoff',
    met: liftoffOnly.liftoff > 0 && liftoffOnly.turbofan === 0,
  });

  log('allocation-site pretenuring…');
  const sitesWith = pretenured(root, flags);
  const sitesWithout = pretenured(root, flags.filter((flag) => flag !== '--no-allocation-site-pretenuring'));
  add({
    check: 'no allocation site pretenured with the start command’s flags (`--no-allocation-site-pretenuring`)',
    figure: `${sitesWith} decisions; without the flag ${sitesWithout}`,
    bound: 'none with it, some without',
    met: sitesWith === 0 && sitesWithout > 0,
  });

  log('promotion per request: undici and node:http…');
  const undici = promotedShare(root, 'undici');
  const http = promotedShare(root, 'http');
  add({
    check: 'share of what the heap allocated that scavenges promoted, 6,000 requests 3 at a time',
    figure: `undici's request ${pct(undici)}, node:http ${pct(http)}`,
    bound: 'a figure (docs/performance.md)',
  });

  log('a large export (250 and 1,000 orders of 60 positions)…');
  const exportArgs = (count: number) => [...flags, '--expose-gc', join(root, 'bench', 'checks', 'large-export.ts'), String(count)];
  const small = json<ExportFigures>(root, exportArgs(250));
  const large = json<ExportFigures>(root, exportArgs(1000));
  add({
    check: 'export of 1,000 orders × 60 positions: the zip’s buffers stay flat',
    figure: `peak buffers ${large.peakBuffersMb} MB (${small.peakBuffersMb} MB for 250 orders)`,
    bound: '< 40 MB, < 15 MB more than for 250',
    met: large.peakBuffersMb < 40 && large.peakBuffersMb - small.peakBuffersMb < 15,
  });
  add({
    check: 'export of 1,000 orders × 60 positions: heap and resident memory while writing',
    figure: `heap +${(large.peakHeapMb - large.heapBeforeMb).toFixed(1)} MB, RSS +${(large.peakRssMb - large.rssBeforeMb).toFixed(1)} MB (250 orders: +${(small.peakHeapMb - small.heapBeforeMb).toFixed(1)}, +${(small.peakRssMb - small.rssBeforeMb).toFixed(1)})`,
    bound: 'heap < +100 MB, RSS < +150 MB',
    met: large.peakHeapMb - large.heapBeforeMb < 100 && large.peakRssMb - large.rssBeforeMb < 150,
  });
  add({
    check: 'export of 1,000 orders × 60 positions: time and file',
    figure: `${(large.ms / 1000).toFixed(1)} s, ${(large.bytes / 1024 / 1024).toFixed(1)} MB`,
    bound: '< 60 s, < 20 MB',
    met: large.ms < 60_000 && large.bytes < 20 * 1024 * 1024,
  });

  log('the LRU after a million uses…');
  const lru = json<{ grownMb: number }>(root, ['--expose-gc', join(root, 'bench', 'checks', 'lru-memory.ts')]);
  add({
    check: 'LRU of 1,000 entries (capacity 50,000): heap after a million gets against after a thousand',
    figure: `+${lru.grownMb.toFixed(2)} MB`,
    bound: '< 2 MB',
    met: lru.grownMb < 2,
  });

  log('a 48 MB upload…');
  const upload = json<{ received: number; growthMb: number }>(root, ['--expose-gc', '--no-concurrent-array-buffer-sweeping', join(root, 'bench', 'checks', 'upload-memory.ts')]);
  add({
    check: 'sendDocument of a 48 MB file: memory held (heap and Buffers) while it goes',
    figure: `+${upload.growthMb.toFixed(1)} MB for ${(upload.received / 1024 / 1024).toFixed(1)} MB sent`,
    bound: '< 16 MB (the file streamed from disk)',
    met: upload.received > 48 * 1024 * 1024 && upload.growthMb < 16,
  });
  return results;
};

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

export const renderChecksSection = (results: CheckResult[], command: string): string => {
  const m = machine();
  return [
    CHECKS_MARKERS.begin,
    '## V8 and memory checks',
    '',
    `Generated by \`${command}\` (bench/checks.ts) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${m.cores} cores (${m.cpu}), Node ${m.node}; start command flags \`${startFlags().join(' ')}\`. Each check runs in a fresh node process; docs/performance.md says what each is for.`,
    '',
    row(['check', 'measured', 'bound', '']),
    row(['---', '---', '---', '---']),
    ...results.map((result) => row([result.check, result.figure, result.bound, result.met === undefined ? '' : result.met ? 'holds' : '**does not hold**'])),
    CHECKS_MARKERS.end,
  ].join('\n');
};
