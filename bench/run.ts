import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startLeanBotApi, type LeanBotApi } from './bot-api.ts';
import { percentile, runLoad, type LoadResult } from './load.ts';
import { PORTAL_TOKEN, startDelayedPortal } from './portal.ts';
import { startBenchPostgres } from './postgres.ts';
import { metric } from './prometheus.ts';
import { cpuMs, freePort, machine, nodeFlags, rssMb, start, type Child, botScript } from './proc.ts';
import { runReplicasBench } from './replicas.ts';
import { renderReplicasSection, REPLICAS_MARKERS } from './replicas-report.ts';
import { markedSection, writeMarkedSection } from './sections.ts';
import { buildAsNpmStart } from '../test/support/start-command.ts';
import { runWatchBench } from './watch.ts';
import { EXPORT_MARKERS, exportMain } from './export.ts';
import { BOTS, type BotName } from './floor-measure.ts';
import { runFloorBench } from './floor.ts';
import { FLOOR_MARKERS, renderFloorSection } from './floor-report.ts';
import { LAYERS_MARKERS, renderLayersSection, runLayersBench } from './layers.ts';
import { CHECKS_MARKERS, renderChecksSection, runChecks } from './checks.ts';
import { RECORDS_MARKERS, renderRecordsSection, runRecordsBench } from './records.ts';
import { renderCompare, runCompare } from './compare.ts';
import { renderWatchReplicasSection, renderWatchSection, watchSection, writeWatchSection, WATCH_MARKERS, WATCH_REPLICAS_MARKERS } from './watch-report.ts';

// npm run bench [-- --quick] [--users 200] [--seconds 12] [--rate 1000] [--profile]
// The real bot (dist/main.js built from src/ as npm start builds it, with the flags of `npm start`, as production runs it) against a lean
// Bot API emulator and the demo portal behind a delay, and a bare Telegraf bot as the floor.
// Prints a table and writes BENCHMARKS.md.
// npm run bench -- --watch [--quick] [--queries 2000] [--interval 60]: the watch scenario alone
// (bench/watch.ts), which writes only the "Watches" section of BENCHMARKS.md; with --replicas 2,
// one replica and then two on PostgreSQL, written in a section of their own after it.
// npm run bench -- --replicas [--quick] [--runs 3] [--replica-rate 150]: the replicas scenario
// alone (bench/replicas.ts: one replica on sqlite, one and two on PostgreSQL, webhook mode), which
// `npm run bench` also runs; it writes only the "Replicas" section.

// npm run bench -- --floor [--quick] [--runs 3] [--users-runs 6] [--changes "…"] [--profile [--bots floor,bare,bot]]: issue 14's scenario alone (bench/floor.ts:
// the floor bot, the bare Telegraf bot and the bot in turns; 100 vs 20,000 distinct users), which
// `npm run bench` also runs; it writes only its section, with --changes as what changed since the last run.
// npm run bench -- --checks: V8's tiering and pretenuring under the start command's flags, GC
// promotion per request, and the memory of an export, the LRU and an upload (bench/checks.ts).
// npm run bench -- --records [--quick] [--runs 3]: issue 31's record view alone (bench/records.ts:
// an order of 60 positions refreshed, as a rich message and as today's HTML view, taking turns),
// which `npm run bench` also runs; it writes only its section.
// npm run bench -- --compare <git ref> [--runs 6]: the bot at that ref against the working tree's,
// fresh bots taking turns in the saturated lookup mix (bench/compare.ts); prints, writes nothing.
// docs/performance.md says what each scenario is for and holds the figures that matter.

// `--replicas` alone is the replicas scenario; `--replicas 2` (with --watch) a number of replicas.
const argv = process.argv.slice(2).flatMap((arg, index, all) => (arg === '--replicas' && !/^\d+$/.test(all[index + 1] ?? '') ? ['--replicas=scenario'] : [arg]));
/** The command as BENCHMARKS.md shows it: without --out, which says where the file went. */
const shownArgs = argv.filter((arg, index) => !['--out', '--changes'].includes(arg) && !['--out', '--changes'].includes(argv[index - 1] ?? '') && !/^--(out|changes)=/.test(arg)).join(' ').replace('--replicas=scenario', '--replicas');
const { values: args } = parseArgs({
  args: argv,
  options: {
    quick: { type: 'boolean', default: false },
    users: { type: 'string', default: '200' },
    seconds: { type: 'string' },
    rate: { type: 'string', default: '1000' },
    profile: { type: 'boolean', default: false },
    out: { type: 'string', default: 'BENCHMARKS.md' },
    watch: { type: 'boolean', default: false },
    export: { type: 'boolean', default: false },
    queries: { type: 'string' },
    interval: { type: 'string', default: '60' },
    replicas: { type: 'string' },
    runs: { type: 'string' },
    'replica-rate': { type: 'string', default: '150' },
    floor: { type: 'boolean', default: false },
    changes: { type: 'string' },
    'many-users': { type: 'string', default: '20000' },
    'users-runs': { type: 'string' },
    layers: { type: 'boolean', default: false },
    updates: { type: 'string' },
    bots: { type: 'string' },
    checks: { type: 'boolean', default: false },
    records: { type: 'boolean', default: false },
    compare: { type: 'string' },
  },
});
const USERS = Number(args.users);
const SECONDS = Number(args.seconds ?? (args.quick ? 4 : 12));
const WARM_UP_MS = 2_000;
const RATE = Number(args.rate);
const DELAY_MS = 100;
const CONCURRENCY = 50;
const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Launched = { child: Child; startupMs: number; idleRssMb: number };

/**
 * Spawns a bot with an update already waiting for it, and measures the time from the spawn to
 * its answer: start-up as a user sees it after a deploy. Idle memory is read a second later.
 */
const launch = async (script: string, api: LeanBotApi, env: Record<string, string>, logFile: string): Promise<Launched> => {
  const answered = new Promise<number>((resolve) => api.onAnswer((answer) => resolve(answer.at)));
  api.say(1, '/order 0007300100');
  const spawned = performance.now();
  const child = start(join(root, script), { BOT_TOKEN: api.token, TELEGRAM_API_ROOT: api.apiRoot, ...env }, logFile);
  const exited = new Promise<undefined>((resolve) => child.process.once('exit', () => resolve(undefined)));
  const first = await Promise.race([answered, exited, sleep(30_000).then(() => undefined)]);
  if (first === undefined) throw new Error(`${script} did not answer (exited or 30 s):\n${child.stderr()}`);
  await sleep(1_000);
  return { child, startupMs: first - spawned, idleRssMb: rssMb(child.process.pid!) };
};

type Phase = {
  name: string;
  delayMs: number;
  /** At most this many updates a second offered (paced), or as fast as the bot answers. */
  rate?: number;
  load: LoadResult;
  cpuMsPerUpdate: number;
  portalRequests?: number;
  rssAfterMb: number;
  /** CPU use of the bot process and of this process (load and emulators), in % of one core. */
  botCpu: number;
  benchCpu: number;
  getUpdates: number;
};

let nextUserId = 10_000;

/** One load run; a fresh set of users each time, so no run starts on another's messages. */
const measure = async (
  name: string,
  api: LeanBotApi,
  child: Child,
  { delayMs = 0, rate, portal, ms = SECONDS * 1000 }: { delayMs?: number; rate?: number; portal?: { state: { requests: number } }; ms?: number },
): Promise<Phase> => {
  const firstUserId = nextUserId;
  nextUserId += USERS;
  const polls = api.calls.get('getUpdates') ?? 0;
  const pid = child.process.pid!;
  const cpuBefore = cpuMs(pid);
  const portalBefore = portal?.state.requests ?? 0;
  const selfBefore = process.cpuUsage();
  log(`  ${name}: ${USERS} users for ${ms / 1000} s…`);
  const load = await runLoad(api, { users: USERS, durationMs: ms, firstUserId, ...(rate !== undefined && { ratePerSecond: rate }) });
  const self = process.cpuUsage(selfBefore);
  const botCpuMs = cpuMs(pid) - cpuBefore;
  const phase: Phase = {
    name,
    delayMs,
    ...(rate !== undefined && { rate }),
    load,
    cpuMsPerUpdate: botCpuMs / load.actions,
    ...(portal && { portalRequests: portal.state.requests - portalBefore }),
    rssAfterMb: rssMb(pid),
    botCpu: (100 * botCpuMs) / load.durationMs,
    benchCpu: (self.user + self.system) / 10 / load.durationMs,
    getUpdates: (api.calls.get('getUpdates') ?? 0) - polls,
  };
  const s = summary(phase);
  log(`    ${s.throughput.toFixed(0)} updates/s, p99 ${s.raw.p99.toFixed(1)} ms, ${phase.cpuMsPerUpdate.toFixed(3)} CPU ms/update, RSS ${phase.rssAfterMb.toFixed(1)} MB`);
  return phase;
};

const summary = (phase: Phase) => {
  const answered = phase.load.samples.filter((sample) => sample.outcome !== 'timeout');
  const raw = answered.map((sample) => sample.ms).sort((a, b) => a - b);
  // Added latency: the portal's delay is taken off an action that waited at least that long (it
  // asked the portal); an action served from the cache adds all of its latency.
  const added = raw.map((ms) => (ms >= phase.delayMs ? ms - phase.delayMs : ms)).sort((a, b) => a - b);
  const stats = (sorted: number[]) => ({ p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) });
  return {
    throughput: answered.length / (phase.load.durationMs / 1000),
    raw: stats(raw),
    added: stats(added),
    timeouts: phase.load.samples.length - answered.length,
    lookups: phase.load.samples.filter((sample) => sample.kind === 'lookup').length,
    pages: phase.load.samples.filter((sample) => sample.kind === 'page').length,
  };
};

const dirMb = (dir: string) => readdirSync(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0) / 1024 / 1024;

/** The bot's environment: production defaults (log level info included) but for these. */
const botEnv = (portalUrl: string, port: number, dataDir: string, extra: Record<string, string> = {}) => ({
  PORTAL_URL: portalUrl,
  PORTAL_TOKEN,
  ALLOW_ANYONE: 'true',
  DATA_DIR: dataDir,
  PORT: String(port),
  // 200 users each acting several times a second would be throttled by the per-user limit.
  FLOOD_LIMIT_PER_MINUTE: '10000',
  CONCURRENCY: String(CONCURRENCY),
  ...(args.profile && { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(root, 'bench', 'profiles')}` }),
  ...extra,
});

const outPath = args.out.startsWith('/') ? args.out : join(root, args.out);

/**
 * 10,000 watches over 2,000 queries for 2 measured intervals; --quick: 2,500 over 500 for 1. With
 * --replicas N: one replica, then N, on PostgreSQL, written beside the sqlite figures.
 */
const watchMain = async () => {
  const temp = mkdtempSync(join(tmpdir(), 'bot-bench-'));
  const replicas = args.replicas === undefined ? 0 : Number(args.replicas);
  const postgres = replicas > 0 ? await startBenchPostgres() : undefined;
  try {
    const options = {
      queries: Number(args.queries ?? (args.quick ? 500 : 2000)),
      chatsPerQuery: 5,
      intervalS: Number(args.interval),
      measured: args.quick ? 1 : 2,
      root,
      temp,
    };
    const command = `npm run bench -- ${shownArgs}`;
    if (postgres) {
      const one = await runWatchBench({ ...options, postgres: { server: postgres, replicas: 1 } });
      const many = await runWatchBench({ ...options, postgres: { server: postgres, replicas } });
      const section = renderWatchReplicasSection(one, many, postgres.version, command);
      process.stdout.write(`\n${section}\n`);
      writeMarkedSection(outPath, WATCH_REPLICAS_MARKERS, section, { after: WATCH_MARKERS });
    } else {
      const section = renderWatchSection(await runWatchBench(options), command);
      process.stdout.write(`\n${section}\n`);
      writeWatchSection(outPath, section);
    }
  } finally {
    await postgres?.stop();
    rmSync(temp, { recursive: true, force: true });
  }
};

/** One replica on sqlite, one and two on PostgreSQL: median of 3 runs (--quick: 1, shorter). */
const replicasScenario = async (temp: string) => {
  // Webhook mode costs a replica more per update than polling (an HTTP request each, not one per
  // batch), and PostgreSQL more again: the paced rate is one that every setup sustains on the
  // 2-core machine (two replicas, PostgreSQL and the benchmark share its cores), so that latency
  // is the bots' and not a queue's.
  const setting = { users: USERS, seconds: SECONDS, warmUpMs: WARM_UP_MS, rate: Number(args['replica-rate']), concurrency: CONCURRENCY };
  const result = await runReplicasBench({
    ...setting,
    root,
    temp,
    runs: Number(args.runs ?? (args.quick ? 1 : 3)),
    firstUserId: 1_000_000,
    log,
  });
  return renderReplicasSection(result, setting, `npm run bench${shownArgs ? ` -- ${shownArgs}` : ''}`);
};

const replicasMain = async () => {
  const temp = mkdtempSync(join(tmpdir(), 'bot-bench-'));
  try {
    const section = await replicasScenario(temp);
    process.stdout.write(`\n${section}\n`);
    writeMarkedSection(outPath, REPLICAS_MARKERS, section, { before: WATCH_MARKERS });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
};

/** The source measured: the last commit and whether the work tree differs from it (read-only git). */
const sourceState = (): string => {
  const git = (...command: string[]) => spawnSync('git', ['-C', root, ...command], { encoding: 'utf8' }).stdout.trim();
  const head = git('log', '--oneline', '-1').slice(0, 60);
  const dirty = git('status', '--porcelain', '--', 'src', 'bench', 'package.json').split('\n').filter(Boolean).length;
  return `\`${head || 'unknown'}…\`${dirty > 0 ? `, with uncommitted changes (${dirty} ${dirty === 1 ? 'file' : 'files'} under src/, bench/, package.json)` : ''}.${args.changes ? ` Since the last recorded run: ${args.changes}` : ''}`;
};

/** Issue 14: the bot against the framework-free floor and the bare Telegraf bot; 100 vs 20,000 distinct users. */
const FLOOR_SETTING = { seconds: SECONDS, warmUpMs: WARM_UP_MS, rate: RATE, users: USERS, concurrency: CONCURRENCY };

/** `--users-runs N`: pairs of the users phase, a whole number from 1 (6 unless given). */
const usersRuns = (): number => {
  const pairs = Number(args['users-runs'] ?? 6);
  if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`--users-runs takes a whole number from 1: ${args['users-runs']}`);
  return pairs;
};

const floorScenario = async (temp: string) => {
  const result = await runFloorBench({
    ...FLOOR_SETTING,
    root,
    temp,
    runs: Number(args.runs ?? 3),
    // The users phase's ratio moves most from run to run (each side a fresh bot): 6 pairs, as
    // many with either side first.
    usersRuns: usersRuns(),
    manyUsers: Number(args['many-users']),
    // --many-users 0: the three bots only, no users phase (for trying flags).
    usersPhase: Number(args['many-users']) > 0,
    fewUsers: 100,
    log,
  });
  return renderFloorSection(result, FLOOR_SETTING, `npm run bench${shownArgs ? ` -- ${shownArgs}` : ''}`, sourceState());
};

/** Issue 31: the record view as a rich message against today's HTML view; 3 runs (--quick: 1). */
const RECORDS_SETTING = { users: 50, seconds: SECONDS, warmUpSeconds: 2 };
const recordsScenario = async (temp: string) => {
  const result = await runRecordsBench({ ...RECORDS_SETTING, root, temp, runs: Number(args.runs ?? (args.quick ? 1 : 3)), log });
  return renderRecordsSection(result, RECORDS_SETTING, `npm run bench${shownArgs ? ` -- ${shownArgs}` : ''}`);
};

const recordsMain = async () => {
  const temp = mkdtempSync(join(tmpdir(), 'bot-bench-'));
  try {
    log('the record view: rich message against today’s HTML view');
    const section = await recordsScenario(temp);
    process.stdout.write(`\n${section}\n`);
    writeMarkedSection(outPath, RECORDS_MARKERS, section, { after: FLOOR_MARKERS });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
};

/** `--bots floor,bot`: the bots a profiled floor run starts (the bot alone unless given). */
const profiledBots = (): BotName[] => (args.bots ?? 'bot').split(',').filter((name): name is BotName => (BOTS as readonly string[]).includes(name));

const floorMain = async () => {
  const temp = mkdtempSync(join(tmpdir(), 'bot-bench-'));
  if (args.profile) {
    // The bot alone, profiled: the top of its profile, nothing written to BENCHMARKS.md.
    const profiles = join(root, 'bench', 'profiles');
    rmSync(profiles, { recursive: true, force: true });
    try {
      await runFloorBench({ ...FLOOR_SETTING, root, temp, runs: 1, manyUsers: 0, fewUsers: 100, log, profileDir: profiles, bots: profiledBots(), usersPhase: false });
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
    for (const name of profiledBots()) {
      spawnSync(process.execPath, [join(root, 'bench', 'profile-top.ts'), join(profiles, name), '40'], { stdio: 'inherit' });
      spawnSync(process.execPath, [join(root, 'bench', 'heap-top.ts'), join(profiles, name), '30'], { stdio: 'inherit' });
    }
    return;
  }
  try {
    const section = await floorScenario(temp);
    process.stdout.write(`\n${section}\n`);
    writeMarkedSection(outPath, FLOOR_MARKERS, section, { before: REPLICAS_MARKERS });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
};

const main = async () => {
  const temp = mkdtempSync(join(tmpdir(), 'bot-bench-'));
  try {
    // 1. The floor: a bare Telegraf bot, paced first (memory after a steady load), then saturated.
    log('bare Telegraf bot (bot.launch() polling)');
    const bareApi = await startLeanBotApi();
    const bare = await launch('bench/bare-bot.ts', bareApi, {}, join(temp, 'bare.log'));
    log(`  start-up ${bare.startupMs.toFixed(0)} ms, idle ${bare.idleRssMb.toFixed(1)} MB`);
    await measure('warm-up', bareApi, bare.child, { rate: RATE, ms: WARM_UP_MS });
    const barePaced = await measure(`bare, 0 ms, paced ${RATE}/s`, bareApi, bare.child, { rate: RATE });
    const bareSaturated = await measure('bare, 0 ms, saturated', bareApi, bare.child, {});
    await bare.child.stop();
    await bareApi.close();

    // 2. The bot at 0 ms portal delay, the same way; then the saturated load again, to see
    // whether memory and the store keep growing.
    log('the bot, portal delay 0 ms');
    const portal0 = await startDelayedPortal(0);
    const api0 = await startLeanBotApi();
    const port0 = await freePort();
    const dataDir0 = mkdtempSync(join(temp, 'data-'));
    const bot0 = await launch(botScript(), api0, botEnv(portal0.url, port0, dataDir0), join(temp, 'bot0.log'));
    log(`  start-up ${bot0.startupMs.toFixed(0)} ms, idle ${bot0.idleRssMb.toFixed(1)} MB`);
    await measure('warm-up', api0, bot0.child, { rate: RATE, portal: portal0, ms: WARM_UP_MS });
    const paced0 = await measure(`bot, 0 ms, paced ${RATE}/s`, api0, bot0.child, { rate: RATE, portal: portal0 });
    const run1 = await measure('bot, 0 ms, saturated, run 1', api0, bot0.child, { portal: portal0 });
    const store1 = dirMb(dataDir0);
    const run2 = await measure('bot, 0 ms, saturated, run 2', api0, bot0.child, { portal: portal0 });
    const store2 = dirMb(dataDir0);
    const metrics0 = await (await fetch(`http://127.0.0.1:${port0}/metrics`)).text();
    await bot0.child.stop();
    await api0.close();
    await portal0.close();

    // 3. At 100 ms portal delay: a fresh bot (cold cache) as configured by default; then with
    // the cache off, where every action waits on the portal and only CONCURRENCY bounds
    // throughput (CONCURRENCY / 0.1 s), at two settings of it.
    const delayed: Phase[] = [];
    const bounded: Array<{ phase: Phase; concurrency: number }> = [];
    const configs: Array<{ label: string; extra: Record<string, string>; concurrency?: number }> = [
      { label: `bot, ${DELAY_MS} ms`, extra: {} },
      { label: `bot, ${DELAY_MS} ms, no cache, CONCURRENCY ${CONCURRENCY}`, extra: { PORTAL_CACHE_SECONDS: '0' }, concurrency: CONCURRENCY },
      ...(args.quick ? [] : [{ label: `bot, ${DELAY_MS} ms, no cache, CONCURRENCY 100`, extra: { PORTAL_CACHE_SECONDS: '0', CONCURRENCY: '100' }, concurrency: 100 }]),
    ];
    for (const [index, { label, extra, concurrency }] of configs.entries()) {
      log(`${label}`);
      const portal = await startDelayedPortal(DELAY_MS);
      const api = await startLeanBotApi();
      const bot = await launch(botScript(), api, botEnv(portal.url, await freePort(), mkdtempSync(join(temp, 'data-')), extra), join(temp, `bot-${index}.log`));
      if (concurrency === undefined) {
        delayed.push(await measure(`${label}, paced ${RATE}/s`, api, bot.child, { delayMs: DELAY_MS, rate: RATE, portal }));
        delayed.push(await measure(`${label}, saturated`, api, bot.child, { delayMs: DELAY_MS, portal }));
      } else {
        const phase = await measure(`${label}, saturated`, api, bot.child, { delayMs: DELAY_MS, portal });
        delayed.push(phase);
        bounded.push({ phase, concurrency });
      }
      await bot.child.stop();
      await api.close();
      await portal.close();
    }

    // 4. The same load against one replica on sqlite, one and two on PostgreSQL (webhook mode).
    const replicas = await replicasScenario(temp);

    // 5. Issue 14: the floor bot beside the bare bot and the bot; 100 vs 20,000 distinct users.
    log('the floor: framework-free bot, bare Telegraf, the bot');
    const floor = await floorScenario(temp);

    // 6. Issue 31: the record view, rich against today's HTML.
    log('the record view: rich message against today’s HTML view');
    const records = await recordsScenario(temp);

    write({ bare, bot0, barePaced, bareSaturated, paced0, run1, run2, store1, store2, metrics0, delayed, bounded }, [floor, records, replicas].join('\n\n'));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
};

type Results = {
  bare: Launched;
  bot0: Launched;
  barePaced: Phase;
  bareSaturated: Phase;
  paced0: Phase;
  run1: Phase;
  run2: Phase;
  store1: number;
  store2: number;
  metrics0: string;
  delayed: Phase[];
  bounded: Array<{ phase: Phase; concurrency: number }>;
};

const write = (r: Results, replicas: string) => {
  const phases = [r.barePaced, r.bareSaturated, r.paced0, r.run1, r.run2, ...r.delayed];
  const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
  const paced0 = summary(r.paced0);
  const barePaced = summary(r.barePaced);
  const run2 = summary(r.run2);
  const bareSaturated = summary(r.bareSaturated);
  const pacedRatio = r.paced0.cpuMsPerUpdate / r.barePaced.cpuMsPerUpdate;
  const saturatedRatio = r.run2.cpuMsPerUpdate / r.bareSaturated.cpuMsPerUpdate;
  const keptUp = paced0.throughput >= 0.9 * RATE && paced0.timeouts === 0;
  const peakRss = Math.max(r.run1.rssAfterMb, r.run2.rssAfterMb);
  const targets: Array<[string, string, boolean]> = [
    ['≥ 1,000 updates/s at 0 ms', `${f(run2.throughput, 0)} updates/s saturated (bare Telegraf ${f(bareSaturated.throughput, 0)})`, run2.throughput >= 1000],
    [
      'p99 added latency < 20 ms at 0 ms',
      `${f(paced0.added.p99)} ms with ${RATE} updates/s offered (bare ${f(barePaced.added.p99)} ms); saturated, where the figure is time in the queue: ${f(run2.added.p99)} ms`,
      keptUp && paced0.added.p99 < 20,
    ],
    [
      'within 2× the bare bot’s cost per update',
      `${f(pacedRatio, 2)}× the bare bot’s CPU per update at ${RATE} updates/s (${f(r.paced0.cpuMsPerUpdate, 3)} vs ${f(r.barePaced.cpuMsPerUpdate, 3)} ms); saturated ${f(saturatedRatio, 2)}× (${f(r.run2.cpuMsPerUpdate, 3)} vs ${f(r.bareSaturated.cpuMsPerUpdate, 3)} ms), where the bare bot answers a fixed text`,
      pacedRatio <= 2,
    ],
    ...r.bounded.map(({ phase, concurrency }): [string, string, boolean] => {
      const bound = concurrency / (DELAY_MS / 1000);
      const s = summary(phase);
      return [
        `${DELAY_MS} ms: throughput limited by concurrency only`,
        `no cache, CONCURRENCY ${concurrency}: ${f(s.throughput, 0)} updates/s of the ${bound}/s bound (${concurrency} in flight / 0.1 s), bot CPU ${f(phase.botCpu, 0)}%`,
        s.throughput >= 0.9 * bound && s.timeouts === 0,
      ];
    }),
    [
      'RSS < 120 MB after the load',
      `${f(r.paced0.rssAfterMb)} MB after ${RATE} updates/s, ${f(peakRss)} MB after the saturated runs (bare Telegraf ${f(r.barePaced.rssAfterMb)} and ${f(r.bareSaturated.rssAfterMb)} MB)`,
      peakRss < 120,
    ],
    [
      'no unbounded growth (run 2 vs run 1)',
      `RSS ${f(r.run1.rssAfterMb)} → ${f(r.run2.rssAfterMb)} MB, store ${f(r.store1, 2)} → ${f(r.store2, 2)} MB`,
      r.run2.rssAfterMb <= r.run1.rssAfterMb * 1.1 && r.store2 - r.store1 < 1,
    ],
    ['start-up < 1 s', `${f(r.bot0.startupMs, 0)} ms to the first answer (bare Telegraf ${f(r.bare.startupMs, 0)} ms)`, r.bot0.startupMs < 1000],
  ];

  const m = machine();
  const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  const actions = (phase: Phase) => phase.load.actions;
  const lines = [
    '# Benchmarks',
    '',
    `Generated by \`npm run bench${args.quick ? ' -- --quick' : ''}\` (bench/run.ts) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    `Machine: ${m.cores} cores (${m.cpu}), Node ${m.node}, node flags \`${nodeFlags().join(' ') || '(none)'}\` (those of \`npm start\`, for both bots).`,
    '',
    `${USERS} simulated users (bench/load.ts), each with one action in flight: a lookup (\`/order\`, \`/spec\` with every filter) or a ◀ ▶ press on its last answer. "Saturated": each sends its next action as soon as the last is answered. "Paced ${RATE}/s": each acts at most every ${f((1000 * USERS) / RATE, 0)} ms, so the load offered is ${RATE} updates/s and the latency is the bot's, not a queue's. ${SECONDS} s per run, after a ${WARM_UP_MS / 1000} s paced warm-up.`,
    '',
    `The bot runs as production runs it: \`node ${nodeFlags().join(' ')} ${botScript()}\`, long polling, log level info (one audit line per lookup, to a file), CONCURRENCY ${CONCURRENCY}, PORTAL_CACHE_SECONDS 30 (the defaults) unless a row says otherwise; only FLOOD_LIMIT_PER_MINUTE is raised. The floor is a bare Telegraf bot (bench/bare-bot.ts: \`bot.launch()\`, a fixed text for every message, an edit and an answer for every press). Both talk HTTP to the same lean Bot API emulator (bench/bot-api.ts); the bot asks the demo portal over HTTP behind the stated delay (bench/portal.ts).`,
    '',
    'Latency: from enqueueing the update in the emulator to the bot\'s sendMessage / editMessageText for it. Added latency: latency less the portal delay for actions that took at least that long, the others counted whole. At 0 ms it is the latency itself; at 100 ms it is an estimate: an action answered from the cache after queueing 100 ms is credited a portal wait it did not have, and one that joined an identical request already in flight is credited none. CPU ms/update: user + system CPU time of the bot process divided by the updates handled. CPU bot / bench: % of one core used by the bot process, and by the benchmark process (load, both emulators, the portal). Portal requests: what the load cost the portal, against the user actions (what the cache and the coalescing of identical queries save).',
    '',
    row(['run', 'updates/s', 'latency p50 / p95 / p99 ms', 'added p50 / p95 / p99 ms', 'CPU ms/update', 'lookups / pages', 'portal requests', 'timeouts', 'RSS after MB', 'CPU bot / bench %', 'updates/poll']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...phases.map((phase) => {
      const x = summary(phase);
      return row([
        phase.name,
        f(x.throughput, 0),
        `${f(x.raw.p50)} / ${f(x.raw.p95)} / ${f(x.raw.p99)}`,
        `${f(x.added.p50)} / ${f(x.added.p95)} / ${f(x.added.p99)}`,
        f(phase.cpuMsPerUpdate, 3),
        `${x.lookups} / ${x.pages}`,
        phase.portalRequests === undefined ? '–' : `${phase.portalRequests} (${f((100 * phase.portalRequests) / actions(phase))}% of actions)`,
        x.timeouts,
        f(phase.rssAfterMb),
        `${f(phase.botCpu, 0)} / ${f(phase.benchCpu, 0)}`,
        f(actions(phase) / Math.max(1, phase.getUpdates)),
      ]);
    }),
    '',
    `Memory. Bare Telegraf: ${f(r.bare.idleRssMb)} MB idle, ${f(r.barePaced.rssAfterMb)} MB after ${RATE} updates/s, ${f(r.bareSaturated.rssAfterMb)} MB after saturation. The bot: ${f(r.bot0.idleRssMb)} MB idle after start-up, ${f(r.paced0.rssAfterMb)} MB after ${RATE} updates/s, ${f(r.run1.rssAfterMb)} MB after saturated run 1, ${f(r.run2.rssAfterMb)} MB after run 2. Store (DATA_DIR): ${f(r.store1, 2)} MB after run 1, ${f(r.store2, 2)} MB after run 2. Portal cache over the 0 ms runs (from /metrics): ${metric(r.metrics0, 'orderbot_portal_cache_hits_total')} hits, ${metric(r.metrics0, 'orderbot_portal_cache_misses_total')} misses.`,
    '',
    '## Targets (issue 5, 2-core machine)',
    '',
    row(['target', 'measured', '']),
    row(['---', '---', '---']),
    ...targets.map(([target, measured, met]) => row([target, measured, met ? 'met' : '**missed**'])),
    '',
  ];
  const text = lines.join('\n');
  process.stdout.write(`\n${text}\n`);
  // The watch scenario's sections, written by its own runs, are carried over.
  const kept = [watchSection(outPath), markedSection(outPath, WATCH_REPLICAS_MARKERS), markedSection(outPath, EXPORT_MARKERS), markedSection(outPath, LAYERS_MARKERS), markedSection(outPath, CHECKS_MARKERS)].filter(Boolean);
  writeFileSync(outPath, [text.trimEnd(), replicas, ...kept].join('\n\n') + '\n');
};

// npm run bench -- --layers [--quick] [--updates 20000] [--runs 5]: issue 14's per-update path layer by layer, in
// process (bench/layers.ts); writes only its section, after the floor's.
const layersMain = async () => {
  const updates = Number(args.updates ?? (args.quick ? 5_000 : 20_000));
  const result = await runLayersBench({ updates, warmUp: Math.min(5_000, updates), rounds: Number(args.runs ?? (args.quick ? 1 : 5)), log });
  const section = renderLayersSection(result, `npm run bench -- ${shownArgs}`);
  process.stdout.write(`\n${section}\n`);
  writeMarkedSection(outPath, LAYERS_MARKERS, section, { after: FLOOR_MARKERS });
};

// npm run bench -- --checks: V8's and the GC's behaviour under the start command's flags and the
// memory of the large operations (bench/checks.ts); writes only its section, at the end.
const checksMain = () => {
  const section = renderChecksSection(runChecks(root, log), `npm run bench -- ${shownArgs}`);
  process.stdout.write(`\n${section}\n`);
  writeMarkedSection(outPath, CHECKS_MARKERS, section);
};

// npm run bench -- --export [--quick]: the export scenario alone (bench/export.ts), which writes only the "Export" section.
const exportOnly = () => exportMain({ root, outPath, quick: args.quick, command: `npm run bench -- ${argv.join(' ')}` });
// npm run bench -- --compare <ref>: the working tree's bot against the ref's (bench/compare.ts).
const compareMain = async (ref: string) => {
  const temp = mkdtempSync(join(tmpdir(), 'bot-bench-'));
  try {
    log(`the bot at ${ref} against the working tree's, taking turns`);
    const result = await runCompare({ ...FLOOR_SETTING, root, temp, manyUsers: 0, fewUsers: 100, log, ref, rounds: Number(args.runs ?? 6) });
    process.stdout.write(`\n${renderCompare(result)}\n`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
};

// The bot is measured as npm start runs it: built first (npm run bench does not run prestart).
buildAsNpmStart();
await (args.compare !== undefined ? compareMain(args.compare) : args.records ? recordsMain() : args.checks ? checksMain() : args.export ? exportOnly() : args.layers ? layersMain() : args.floor ? floorMain() : args.watch ? watchMain() : args.replicas === 'scenario' ? replicasMain() : main());
