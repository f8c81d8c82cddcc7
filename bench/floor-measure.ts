import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startLeanBotApi, type LeanBotApi } from './bot-api.ts';
import { percentile, runLoad, type Sample } from './load.ts';
import { PORTAL_TOKEN } from './portal.ts';
import { botEnv } from './bot-env.ts';
import { cpuMs, freePort, rssFileMb, rssMb, start, type Child, botScript } from './proc.ts';

// The floor bench's bots (bench/floor.ts): starting one, driving load at it, and what a phase
// measured of it.

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
export type FloorOptions = {
  root: string;
  temp: string;
  runs: number;
  seconds: number;
  warmUpMs: number;
  rate: number;
  users: number;
  /** The distinct users of the many-users side (each of `fewUsers` slots rotates over its share). */
  manyUsers: number;
  /** The few-users side's users, and the slots (actions in flight) of both sides of a users pair. */
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
/** The first of `count` user ids no phase has had yet. */
export const takeUserIds = (count: number): number => {
  const first = nextUserId;
  nextUserId += count;
  return first;
};

export type Load = { users: number; ms: number; rate?: number; distinct?: number; lookupsOnly?: boolean; turnsPerSlot?: number; firstUserId?: number; turns?: number[] };
/** One stretch of load on one bot: its samples, and the CPU time the bot and this process spent. */
export type Stretch = { samples: Sample[]; durationMs: number; actions: number; cpuMs: number; benchCpuMs: number };

export const drive = async (api: LeanBotApi, child: Child, load: Load): Promise<Stretch> => {
  // New users each phase (takeUserIds), unless given a first id: a users pair's warm-up and
  // slices share the ids taken for their side.
  const firstUserId = load.firstUserId ?? takeUserIds(Math.max(load.users, load.distinct ?? 0));
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
    ...(load.turnsPerSlot !== undefined && { turnsPerSlot: load.turnsPerSlot }),
    ...(load.turns !== undefined && { turns: load.turns }),
  });
  const bench = process.cpuUsage(benchBefore);
  return { ...result, cpuMs: cpuMs(pid) - cpuBefore, benchCpuMs: (bench.user + bench.system) / 1000 };
};

/** A phase's figures from its stretches (one, or the slices of a users phase), the RSS as it is now. */
export const summarize = (child: Child, stretches: Stretch[]): Measured => {
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

export const measure = async (api: LeanBotApi, child: Child, load: Load): Promise<Measured> => summarize(child, [await drive(api, child, load)]);

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

/** A bot on a lean Bot API of its own. */
export type Running = { api: LeanBotApi; child: Child };

/** Starts a lean Bot API and one bot on it, answered once; the API is closed if the bot does not answer. */
export const startBot = async (name: BotName, options: FloorOptions, portalUrl: string, logFile: string): Promise<Running> => {
  const api = await startLeanBotApi();
  try {
    return { api, child: await launch(name, options, api, portalUrl, logFile) };
  } catch (error) {
    await api.close();
    throw error;
  }
};

/** Stops the bot, then closes its Bot API whatever the stop did. */
export const stopBot = async ({ api, child }: Running): Promise<void> => {
  try {
    await child.stop();
  } finally {
    await api.close();
  }
};

export const line = (m: Measured) =>
  `${m.throughput.toFixed(0)} updates/s, p50/p95/p99 ${m.p50.toFixed(1)}/${m.p95.toFixed(1)}/${m.p99.toFixed(1)} ms, ${m.cpuMsPerUpdate.toFixed(3)} CPU ms/update, CPU ${m.cpuShare.toFixed(0)} % (bench ${m.benchCpuShare.toFixed(0)} %), RSS ${m.rssAfterMb.toFixed(1)} MB`;
