import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNodeProbe } from '../support/node-probe.ts';
import { ROOT, startArgs } from '../support/start-command.ts';

/**
 * 200 requests through undici's client as the bot loads it (src/http/undici.ts's files) to a local
 * server, so that llhttp parses 200 answers. Plain JavaScript: a .ts file would bring Node's type
 * stripper, which is WebAssembly too, and llhttp must be the only WebAssembly in the process.
 */
const PROBE = `
const require = process.getBuiltinModule('node:module').createRequire(process.argv[1]);
const { createServer } = process.getBuiltinModule('node:http');
const Agent = require('undici/lib/dispatcher/agent.js');
const request = require('undici/lib/api/api-request.js');
const server = createServer((req, res) => { req.resume(); req.on('end', () => res.end('{"ok":true}')); });
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const agent = new Agent();
for (let i = 0; i < 200; i++) await (await request.call(agent, { origin: 'http://127.0.0.1:' + server.address().port, path: '/', method: 'GET' })).body.text();
await agent.close();
server.close();
`;

/** How many WebAssembly functions each of V8's compilers compiled while the probe ran with these flags. */
const wasmCompiles = (flags: string[]): { liftoff: number; turbofan: number } => {
  // A tiering budget of 1: the first call of a function would send it to TurboFan, as a long run does.
  const args = [...flags, '--trace-wasm-compilation-times', '--wasm-tiering-budget=1', '--input-type=module', '-e', PROBE, join(ROOT, 'package.json')];
  // V8 writes the trace to standard output, a line per function compiled.
  const lines = runNodeProbe(args).split('\n');
  const count = (compiler: string) => lines.filter((line) => line.includes(`using ${compiler},`)).length;
  return { liftoff: count('Liftoff'), turbofan: count('TurboFan') };
};

/**
 * Object literals from one site, most kept alive while the young generation is at its largest: the
 * pattern from which V8 decides to allocate a site's objects in the old generation from then on.
 */
const PRETENURE_PROBE = `
const keep = [];
const make = (i) => ({ id: i, tags: [i, i + 1], name: 'n' + i });
for (let round = 0; round < 1000; round++) {
  for (let i = 0; i < 5000; i++) keep.push(make(i));
  if (keep.length > 400000) keep.length = 0;
}
`;

/**
 * How many decisions to pretenure an allocation site V8 traced while the probe ran with these flags.
 * The young generation starts at its largest, the size at which V8 takes such decisions: left to
 * grow as it does in the bot, it reached that size too late in some runs on a busy machine.
 */
const pretenured = (flags: string[]): number => {
  const largest = flags.find((flag) => flag.startsWith('--max-semi-space-size='))?.split('=')[1];
  const young = largest === undefined ? [] : [`--min-semi-space-size=${largest}`];
  return runNodeProbe([...flags, ...young, '--trace-pretenuring-statistics', '--input-type=module', '-e', PRETENURE_PROBE])
    .split('\n')
    .filter((line) => line.includes('=> tenure')).length;
};

describe('the start command', () => {
  it('is the same in the Dockerfile as in npm start', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(`${ROOT}Dockerfile`, 'utf8'))?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(['node', ...startArgs()]);
  });

  it('runs the entry point built from src/ by the step npm start runs first, which the image runs too', () => {
    const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };
    expect(startArgs().at(-1)).toBe('dist/main.js');
    expect(scripts.prestart).toBe('node --disable-warning=ExperimentalWarning scripts/build.js');
    expect(scripts.build).toBe(scripts.prestart);
    expect(readFileSync(`${ROOT}Dockerfile`, 'utf8')).toContain('RUN ["node", "--disable-warning=ExperimentalWarning", "scripts/build.js"]');
  });

  it("keeps undici's HTTP parser (WebAssembly) on V8's baseline compiler, whose tier-up would leave megabytes in worker threads' arenas", () => {
    const flags = startArgs().slice(0, -1);
    const withStartFlags = wasmCompiles(flags);
    expect(withStartFlags.liftoff).toBeGreaterThan(0);
    expect(withStartFlags.turbofan).toBe(0);
    // The control: without the two tiering flags, the same run tiers llhttp up.
    expect(wasmCompiles(flags.filter((flag) => !flag.startsWith('--no-wasm-'))).turbofan).toBeGreaterThan(0);
  });

  it("keeps V8 from pretenuring allocation sites: a decision from one scavenge would send a hot site's objects to the old generation from then on", () => {
    const flags = startArgs().slice(0, -1);
    expect(pretenured(flags)).toBe(0);
    // The control: without the flag, the same run pretenures sites.
    expect(pretenured(flags.filter((flag) => flag !== '--no-allocation-site-pretenuring'))).toBeGreaterThan(0);
  });
});
