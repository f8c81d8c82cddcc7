import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLeanBotApi, type LeanBotApi } from './bot-api.ts';
import { percentile, runLoad, type Sample } from './load.ts';
import { PORTAL_TOKEN, startDelayedPortal } from './portal.ts';
import { botEnv } from './bot-env.ts';
import { cpuMs, freePort, rssFileMb, rssMb, start, type Child, botScript } from './proc.ts';

// Issue 14's scenario: the bot beside the two floors, the framework-free bot (bench/floor-bot.ts:
// undici, one portal GET and one sendMessage per update) and the bare Telegraf bot, each started
// fresh on its own lean Bot API (the same emulator) against one demo portal at 0 ms, taking turns
// run after run; then the bot under the same saturated load from 100 users and from 20,000 distinct
// users: pairs of fresh bots, one for each, measured in slices taking turns (usersPair).

export const BOTS = ['floor', 'bare', 'bot'] as const;
export type BotName = (typeof BOTS)[number];
const SCRIPTS: Record<BotName, string> = { floor: 'bench/floor-bot.ts', bare: 'bench/bare-bot.ts', bot: botScript() };

/** One measured phase: throughput, latency percentiles, CPU per update from /proc. */
export type Measured = {
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  cpuMsPerUpdate: number;
  /** CPU time over the phase's wall time, in % of one core: the bot's, and the benchmark process's (its emulator, load and portal). */
  cpuShare: number;
  benchCpuShare: number;
  timeouts: number;
  lookups: number;
  pages: number;
  rssAfterMb: number;
  /** Of it, file-backed (proc.ts: rssFileMb). */
  rssFileMb: number;
};
export type BotRun = { paced: Measured; saturated: Measured };
export type UsersRun = { users: number; distinct: number; saturated: Measured };
export type FloorResult = {
  runs: Array<Record<BotName, BotRun>>;
  usersRuns: Array<{ few: UsersRun; many: UsersRun }>;
  /** The machine's 1-minute load average at the start and at the end: other work sharing the cores. */
  load: { start: number; end: number };
};

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

export type FloorOptions = {
  root: string;
  temp: string;
  runs: number;
  seconds: number;
  warmUpMs: number;
  rate: number;
  users: number;
  /** The distinct users of the many-users phase (each of `users` slots rotates over its share). */
  manyUsers: number;
  fewUsers: number;
  concurrency: number;
  log: (line: string) => void;
  /** Profiles the bot (--cpu-prof into this directory, one file per process). */
  profileDir?: string;
  /** The bots to run (all three unless given), and whether to run the 100 vs 20,000 users phase. */
  bots?: readonly BotName[];
  usersPhase?: boolean;
  /** Pairs of the users phase (100 and 20,000 users); `runs` unless given. */
  usersRuns?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let nextUserId = 5_000_000;

type Load = { users: number; ms: number; rate?: number; distinct?: number; lookupsOnly?: boolean; maxActions?: number; firstUserId?: number; turns?: number[] };
/** One stretch of load on one bot: its samples, and the CPU time the bot and this process spent. */
type Stretch = { samples: Sample[]; durationMs: number; actions: number; cpuMs: number; benchCpuMs: number };

const drive = async (api: LeanBotApi, child: Child, load: Load): Promise<Stretch> => {
  // New users each phase, unless told to be the users of an earlier one.
  const firstUserId = load.firstUserId ?? nextUserId;
  if (load.firstUserId === undefined) nextUserId += Math.max(load.users, load.distinct ?? 0);
  const pid = child.process.pid!;
  const cpuBefore = cpuMs(pid);
  const benchBefore = process.cpuUsage();
  const result = await runLoad(api, {
    users: load.users,
    durationMs: load.ms,
    firstUserId,
    ...(load.rate !== undefined && { ratePerSecond: load.rate }),
    ...(load.distinct !== undefined && { distinctUsers: load.distinct }),
    ...(load.lookupsOnly && { lookupsOnly: true }),
    ...(load.maxActions !== undefined && { maxActions: load.maxActions }),
    ...(load.turns !== undefined && { turns: load.turns }),
  });
  const bench = process.cpuUsage(benchBefore);
  return { ...result, cpuMs: cpuMs(pid) - cpuBefore, benchCpuMs: (bench.user + bench.system) / 1000 };
};

/** A phase's figures from its stretches (one, or the slices of a users phase), the RSS as it is now. */
const summarize = (child: Child, stretches: Stretch[]): Measured => {
  const pid = child.process.pid!;
  const samples = stretches.flatMap((stretch) => stretch.samples);
  const sum = (of: (stretch: Stretch) => number) => stretches.reduce((total, stretch) => total + of(stretch), 0);
  const durationMs = sum((stretch) => stretch.durationMs);
  const cpu = sum((stretch) => stretch.cpuMs);
  const answered = samples.filter((sample) => sample.outcome !== 'timeout');
  const sorted = answered.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    throughput: answered.length / (durationMs / 1000),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    cpuMsPerUpdate: cpu / sum((stretch) => stretch.actions),
    cpuShare: (100 * cpu) / durationMs,
    benchCpuShare: (100 * sum((stretch) => stretch.benchCpuMs)) / durationMs,
    timeouts: samples.length - answered.length,
    lookups: samples.filter((sample) => sample.kind === 'lookup').length,
    pages: samples.filter((sample) => sample.kind === 'page').length,
    rssAfterMb: rssMb(pid),
    rssFileMb: rssFileMb(pid),
  };
};

const measure = async (api: LeanBotApi, child: Child, load: Load): Promise<Measured> => summarize(child, [await drive(api, child, load)]);

/** Starts one bot with an update waiting and returns once it has answered it. */
const launch = async (name: BotName, options: FloorOptions, api: LeanBotApi, portalUrl: string, logFile: string): Promise<Child> => {
  const answered = new Promise<boolean>((resolve) => api.onAnswer(() => resolve(true)));
  api.say(1, '/order 0007300100');
  const env: Record<string, string> = { BOT_TOKEN: api.token, TELEGRAM_API_ROOT: api.apiRoot, PORTAL_URL: portalUrl, PORTAL_TOKEN };
  if (name === 'bot') {
    Object.assign(env, botEnv(api, portalUrl, mkdtempSync(join(options.temp, 'data-')), await freePort()), {
      FLOOD_LIMIT_PER_MINUTE: '10000',
      CONCURRENCY: String(options.concurrency),
    });
  }
  if (options.profileDir) {
    const dir = join(options.profileDir, name);
    // The allocation profile stops before the bot does: it covers the warm-up and the paced phase.
    mkdirSync(dir, { recursive: true });
    env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${dir} --import=${join(options.root, 'bench', 'alloc-profile.ts')}`;
    Object.assign(env, { ALLOC_PROFILE_DIR: dir, ALLOC_PROFILE_MS: String(options.warmUpMs + options.seconds * 1000) });
  }
  const child = start(join(options.root, SCRIPTS[name]), env, logFile);
  const exited = new Promise<boolean>((resolve) => child.process.once('exit', () => resolve(false)));
  if (!(await Promise.race([answered, exited, sleep(30_000).then(() => false)]))) {
    await child.stop();
    throw new Error(`${name} did not answer (exited or 30 s):\n${child.stderr()}`);
  }
  return child;
};

const line = (m: Measured) =>
  `${m.throughput.toFixed(0)} updates/s, p50/p95/p99 ${m.p50.toFixed(1)}/${m.p95.toFixed(1)}/${m.p99.toFixed(1)} ms, ${m.cpuMsPerUpdate.toFixed(3)} CPU ms/update, CPU ${m.cpuShare.toFixed(0)} % (bench ${m.benchCpuShare.toFixed(0)} %), RSS ${m.rssAfterMb.toFixed(1)} MB`;

/** Each side of a users pair is measured in this many slices, taking turns with the other's. */
export const SLICES_PER_SIDE = 6;

/**
 * One pair of the users phase: a fresh bot for 100 users and one for 20,000, both running, each
 * warmed up, then measured in slices taking turns (A B B A A B …, the first alternating pair by
 * pair): a change in the machine's speed over the pair weighs on both sides alike. Only one bot
 * has load at a time; the other waits on its long poll.
 */
const usersPair = async (options: FloorOptions, portalUrl: string, pairNumber: number): Promise<{ few: UsersRun; many: UsersRun }> => {
  const sides: Array<{ distinct: number; api: LeanBotApi; child: Child; firstUserId: number; turns: number[]; stretches: Stretch[] }> = [];
  try {
    // Which goes first alternates pair by pair, in the warm-up as in the slices: the first warmed
    // up waits through the other's warm-up, and its portal cache is the older.
    const distincts = pairNumber % 2 === 1 ? [options.fewUsers, options.manyUsers] : [options.manyUsers, options.fewUsers];
    for (const distinct of distincts) {
      const api = await startLeanBotApi();
      let child: Child;
      try {
        child = await launch('bot', options, api, portalUrl, join(options.temp, `users-${distinct}-${pairNumber}.log`));
      } catch (error) {
        await api.close();
        throw error;
      }
      sides.push({ distinct, api, child, firstUserId: nextUserId, turns: Array.from({ length: options.fewUsers }, () => 0), stretches: [] });
      // Warmed up with as many lookups as the many-users side has users, from this side's users:
      // every one of the 20,000 has acted within the minute before the measurement (the flood
      // limiter holds them all), and both sides start with the same portal cache.
      await drive(api, child, { users: options.fewUsers, ms: 60_000, distinct, lookupsOnly: true, maxActions: options.manyUsers });
    }
    const [a, b] = [sides[0]!, sides[1]!];
    const sliceMs = (options.seconds * 1000) / SLICES_PER_SIDE;
    for (let slice = 0; slice < 2 * SLICES_PER_SIDE; slice++) {
      const side = ((slice + 1) >> 1) % 2 === 0 ? a : b;
      // The rotation goes on from slice to slice: every one of the 20,000 keeps its turn.
      side.stretches.push(await drive(side.api, side.child, { users: options.fewUsers, ms: sliceMs, distinct: side.distinct, lookupsOnly: true, firstUserId: side.firstUserId, turns: side.turns }));
    }
    const measured = (distinct: number): UsersRun => {
      const side = sides.find((candidate) => candidate.distinct === distinct)!;
      const saturated = summarize(side.child, side.stretches);
      options.log(`  run ${pairNumber}, bot, ${side.distinct} distinct users: ${line(saturated)}`);
      return { users: options.fewUsers, distinct: side.distinct, saturated };
    };
    return { few: measured(options.fewUsers), many: measured(options.manyUsers) };
  } finally {
    // Each side stopped and closed whatever befell the other.
    await Promise.allSettled(
      sides.map(async (side) => {
        try {
          await side.child.stop();
        } finally {
          await side.api.close();
        }
      }),
    );
  }
};

export const runFloorBench = async (options: FloorOptions): Promise<FloorResult> => {
  const { log, seconds, warmUpMs, rate, users } = options;
  const portal = await startDelayedPortal(0);
  const result: FloorResult = { runs: [], usersRuns: [], load: { start: loadAverage(), end: NaN } };
  try {
    for (let run = 1; run <= options.runs; run++) {
      const byBot: Partial<Record<BotName, BotRun>> = {};
      for (const name of options.bots ?? BOTS) {
        const api = await startLeanBotApi();
        const child = await launch(name, options, api, portal.url, join(options.temp, `floor-${name}-${run}.log`));
        try {
          await measure(api, child, { users, ms: warmUpMs, rate });
          const paced = await measure(api, child, { users, ms: seconds * 1000, rate });
          const saturated = await measure(api, child, { users, ms: seconds * 1000 });
          log(`  run ${run}, ${name}: paced ${rate}/s ${line(paced)}; saturated ${line(saturated)}`);
          byBot[name] = { paced, saturated };
        } finally {
          await child.stop();
          await api.close();
        }
      }
      result.runs.push(byBot as Record<BotName, BotRun>);
    }
    for (let pairNumber = 1; options.usersPhase !== false && pairNumber <= (options.usersRuns ?? options.runs); pairNumber++) {
      result.usersRuns.push(await usersPair(options, portal.url, pairNumber));
    }
  } finally {
    await portal.close();
  }
  result.load.end = loadAverage();
  return result;
};
