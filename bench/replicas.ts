import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startLeanBotApi, type LeanBotApi } from './bot-api.ts';
import { percentile, runLoad, type LoadResult } from './load.ts';
import { botEnv } from './bot-env.ts';
import { startDelayedPortal } from './portal.ts';
import { databaseDelta, startBenchPostgres, type BenchPostgres, type DatabaseDelta, type DatabaseSnapshot } from './postgres.ts';
import { metric } from './prometheus.ts';
import { cpuMs, freePort, rssMb, start, type Child, botScript } from './proc.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../test/support/round-robin-proxy.ts';
import { startWebhookPoster, WEBHOOK_SECRET, WEBHOOK_URL, type WebhookPoster } from './webhook.ts';

// The replicas scenario (issue 12): the same lookup load (bench/load.ts) against (a) one replica
// on sqlite, (b) one on PostgreSQL, (c) two on one PostgreSQL behind the round-robin proxy of the
// end-to-end tests and, as a control, (d) one on PostgreSQL behind the proxy; all in webhook mode
// so that they compare: the load's updates are POSTed with the secret header to the bot or the
// proxy, and the lean Bot API takes the bots' answers. Each setup gets a fresh database on one
// PostgreSQL server, paced at a rate one replica sustains and then saturated; the setups take
// turns, run after run, so that a slow minute of this shared machine does not fall on one only.

export type Setup = { key: 'a' | 'b' | 'c' | 'd'; label: string; store: 'sqlite' | 'postgres'; replicas: number; proxy: boolean };

/** (d) is the control: what the proxy alone costs, without a second replica. */
export const SETUPS: readonly Setup[] = [
  { key: 'a', label: 'one replica, sqlite', store: 'sqlite', replicas: 1, proxy: false },
  { key: 'b', label: 'one replica, PostgreSQL', store: 'postgres', replicas: 1, proxy: false },
  { key: 'c', label: 'two replicas, PostgreSQL, proxy', store: 'postgres', replicas: 2, proxy: true },
  { key: 'd', label: 'one replica, PostgreSQL, proxy', store: 'postgres', replicas: 1, proxy: true },
];

export type ReplicasOptions = {
  root: string;
  temp: string;
  users: number;
  seconds: number;
  warmUpMs: number;
  /** Updates a second offered in the paced phase. */
  rate: number;
  runs: number;
  concurrency: number;
  /** The first simulated user's id: each phase takes `users` more. */
  firstUserId: number;
  log: (line: string) => void;
  /** Which setups to run; all three by default. */
  setups?: readonly Setup[];
};

/**
 * PostgreSQL adds a backend's transaction counts to pg_stat_database when it has been idle up to
 * 10 s (PGSTAT_IDLE_INTERVAL): the paced phase starts that long after the warm-up, and its counts
 * are read that long after it (the saturated phase's are not). Statements (pg_stat_statements)
 * and CPU time are read at once.
 */
const STATS_SETTLE_MS = 11_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one phase of one setup measured. Costs are per update handled; NaN where they do not apply. */
export type Figures = {
  updatesPerSecond: number;
  p50: number;
  p99: number;
  timeouts: number;
  updates: number;
  /** CPU of the bot processes (all replicas), ms per update and % of one core. */
  botCpuMs: number;
  botCpu: number;
  /** CPU of the benchmark process (load, lean Bot API, portal, webhook posts, the proxy), % of one core. */
  benchCpu: number;
  /** CPU of the PostgreSQL server's processes. */
  postgresCpuMs: number;
  postgresCpu: number;
  /** Statements the bots ran (each a round trip), transactions, BEGINs, server execution ms. */
  statements: number;
  transactions: number;
  begins: number;
  execMs: number;
  portalRequests: number;
  failedPosts: number;
  /** How long a webhook post waited for its answer (the update handled), p50 and p99, ms. */
  postP50: number;
  postP99: number;
  /** Updates handled by each replica (orderbot_updates_total). */
  byReplica: number[];
};

export type SetupRun = {
  setup: Setup;
  paced: Figures;
  saturated: Figures;
  /** From spawning the replicas together to all of them ready (/readyz 200). */
  startupMs: number;
  setWebhookCalls: number;
  rssMb: number[];
  /** The statements of the paced phase, most frequent first (PostgreSQL only). */
  top: DatabaseDelta['top'];
};

type Replica = { child: Child; port: number };

const ready = async (replica: Replica): Promise<boolean> => {
  try {
    return (await fetch(`http://127.0.0.1:${replica.port}/readyz`)).ok;
  } catch {
    return false;
  }
};

const scrape = async (replica: Replica) => (await fetch(`http://127.0.0.1:${replica.port}/metrics`)).text();

export const runReplicasBench = async (options: ReplicasOptions): Promise<{ runs: SetupRun[]; postgresVersion: string }> => {
  const { root, temp, users, log } = options;
  const postgres = await startBenchPostgres();
  let nextUserId = options.firstUserId;
  const runs: SetupRun[] = [];
  try {
    for (let run = 1; run <= options.runs; run++) {
      for (const setup of options.setups ?? SETUPS) {
        log(`replicas, run ${run} of ${options.runs}: ${setup.label}`);
        runs.push(await runSetup(setup, run, postgres));
      }
    }
  } finally {
    await postgres.stop();
  }
  return { runs, postgresVersion: postgres.version };

  async function runSetup(setup: Setup, run: number, pg: BenchPostgres): Promise<SetupRun> {
    const portal = await startDelayedPortal(0);
    const api = await startLeanBotApi({ webhook: true });
    const databaseUrl = setup.store === 'postgres' ? await pg.createDatabase(`bench_${setup.key}`) : undefined;
    const replicas: Replica[] = [];
    let proxy: RoundRobinProxy | undefined;
    let poster: WebhookPoster | undefined;
    try {
      const spawned = performance.now();
      for (let index = 0; index < setup.replicas; index++) {
        const port = await freePort();
        const env = {
          ...botEnv(api, portal.url, mkdtempSync(join(temp, 'data-')), port),
          WEBHOOK_URL,
          WEBHOOK_SECRET,
          // 200 users each acting several times a second would be throttled by the per-user limit.
          FLOOD_LIMIT_PER_MINUTE: '10000',
          CONCURRENCY: String(options.concurrency),
          ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
        };
        replicas.push({ child: start(join(root, botScript()), env, join(temp, `replicas-${setup.key}-${run}-${index}.log`)), port });
      }
      for (let waited = 0; !(await Promise.all(replicas.map(ready))).every(Boolean); waited += 100) {
        const dead = replicas.find((replica) => replica.child.process.exitCode !== null);
        if (dead || waited > 60_000) throw new Error(`a replica did not get ready (${dead ? 'exited' : '60 s'}):\n${(dead ?? replicas[0]!).child.stderr()}`);
        await sleep(100);
      }
      const startupMs = performance.now() - spawned;
      proxy = setup.proxy ? await startRoundRobinProxy(replicas.map((replica) => `http://127.0.0.1:${replica.port}`)) : undefined;
      poster = startWebhookPoster(proxy?.url ?? `http://127.0.0.1:${replicas[0]!.port}`);
      api.deliverTo(poster.post);
      const probe = { api, portal, replicas, poster, pg, databaseUrl };
      await measure(probe, { ms: options.warmUpMs, rate: options.rate });
      if (databaseUrl !== undefined) await sleep(STATS_SETTLE_MS);
      const paced = await measure(probe, { ms: options.seconds * 1000, rate: options.rate, settle: true });
      const saturated = await measure(probe, { ms: options.seconds * 1000 });
      log(`  start-up ${startupMs.toFixed(0)} ms; setWebhook called ${api.calls.get('setWebhook') ?? 0} time(s)`);
      return {
        setup,
        paced: paced.figures,
        saturated: saturated.figures,
        startupMs,
        setWebhookCalls: api.calls.get('setWebhook') ?? 0,
        rssMb: replicas.map((replica) => rssMb(replica.child.process.pid!)),
        top: paced.top,
      };
    } finally {
      await Promise.all(replicas.map((replica) => replica.child.stop()));
      await proxy?.close();
      await poster?.close();
      await api.close();
      await portal.close();
    }
  }

  type Probe = {
    api: LeanBotApi;
    portal: Awaited<ReturnType<typeof startDelayedPortal>>;
    replicas: Replica[];
    poster: WebhookPoster;
    pg: BenchPostgres;
    databaseUrl: string | undefined;
  };

  /** One load phase; with `settle`, PostgreSQL's transaction counts are waited for after it. */
  async function measure({ api, portal, replicas, poster, pg, databaseUrl }: Probe, { ms, rate, settle = false }: { ms: number; rate?: number; settle?: boolean }) {
    const onPostgres = databaseUrl !== undefined;
    const botCpu = () => replicas.reduce((sum, replica) => sum + cpuMs(replica.child.process.pid!), 0);
    const snapshot = (): Promise<DatabaseSnapshot | undefined> => (onPostgres ? pg.snapshot(databaseUrl) : Promise.resolve(undefined));
    const metricsBefore = await Promise.all(replicas.map(scrape));
    const dbBefore = await snapshot();
    const postsBefore = poster.counts();
    poster.takeDurations();
    const portalBefore = portal.state.requests;
    const botBefore = botCpu();
    const pgBefore = pg.cpuMs();
    const selfBefore = process.cpuUsage();
    const firstUserId = nextUserId;
    nextUserId += users;
    const load = await runLoad(api, { users, durationMs: ms, firstUserId, ...(rate !== undefined && { ratePerSecond: rate }) });
    const botMs = botCpu() - botBefore;
    const pgMs = pg.cpuMs() - pgBefore;
    const self = process.cpuUsage(selfBefore);
    const dbAfter = await snapshot();
    const metricsAfter = await Promise.all(replicas.map(scrape));
    const postsAfter = poster.counts();
    const postMs = poster.takeDurations().sort((a, b) => a - b);
    // The statements are counted at once; the transactions once the server has them all.
    if (settle && onPostgres) await sleep(STATS_SETTLE_MS);
    const transactionsAfter = settle ? await snapshot() : undefined;
    const db = dbBefore && dbAfter ? databaseDelta(dbBefore, dbAfter) : undefined;
    const failedPosts = [...postsAfter.failed.values()].reduce((a, b) => a + b, 0) - [...postsBefore.failed.values()].reduce((a, b) => a + b, 0);
    const figures = summarize(load, {
      botMs,
      benchMs: (self.user + self.system) / 1000,
      pgMs: onPostgres ? pgMs : NaN,
      db,
      transactions: dbBefore && transactionsAfter ? transactionsAfter.transactions - dbBefore.transactions : NaN,
      portalRequests: portal.state.requests - portalBefore,
      failedPosts,
      postMs,
      byReplica: metricsAfter.map((text, index) => metric(text, 'orderbot_updates_total') - metric(metricsBefore[index] ?? '', 'orderbot_updates_total')),
    });
    log(
      `  ${rate === undefined ? 'saturated' : `paced ${rate}/s`}, ${ms / 1000} s: ${figures.updatesPerSecond.toFixed(0)} updates/s, p50 ${figures.p50.toFixed(1)} p99 ${figures.p99.toFixed(1)} ms, ` +
        `post answered p50 ${figures.postP50.toFixed(1)} p99 ${figures.postP99.toFixed(1)} ms, ` +
        `bot ${figures.botCpuMs.toFixed(3)} + PostgreSQL ${figures.postgresCpuMs.toFixed(3)} CPU ms/update, ${figures.statements.toFixed(2)} statements/update, ` +
        `CPU % bots ${figures.botCpu.toFixed(0)} PostgreSQL ${figures.postgresCpu.toFixed(0)} bench ${figures.benchCpu.toFixed(0)}, ` +
        `replicas ${figures.byReplica.join(' / ')}${failedPosts > 0 ? `, ${failedPosts} posts failed: ${[...postsAfter.failed].map(([why, n]) => `${why} ×${n}`).join(', ')}` : ''}`,
    );
    return { figures, top: db?.top ?? [] };
  }
};

const summarize = (
  load: LoadResult,
  costs: {
    botMs: number;
    benchMs: number;
    pgMs: number;
    db: DatabaseDelta | undefined;
    transactions: number;
    portalRequests: number;
    failedPosts: number;
    /** Sorted. */
    postMs: number[];
    byReplica: number[];
  },
): Figures => {
  const answered = load.samples.filter((sample) => sample.outcome !== 'timeout');
  const latencies = answered.map((sample) => sample.ms).sort((a, b) => a - b);
  const updates = load.actions;
  const per = (value: number) => value / updates;
  return {
    updatesPerSecond: answered.length / (load.durationMs / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    timeouts: load.samples.length - answered.length,
    updates,
    botCpuMs: per(costs.botMs),
    botCpu: (100 * costs.botMs) / load.durationMs,
    benchCpu: (100 * costs.benchMs) / load.durationMs,
    postgresCpuMs: per(costs.pgMs),
    postgresCpu: (100 * costs.pgMs) / load.durationMs,
    statements: costs.db ? per(costs.db.statements) : NaN,
    transactions: per(costs.transactions),
    begins: costs.db ? per(costs.db.begins) : NaN,
    execMs: costs.db ? per(costs.db.execMs) : NaN,
    portalRequests: costs.portalRequests,
    failedPosts: costs.failedPosts,
    postP50: percentile(costs.postMs, 50),
    postP99: percentile(costs.postMs, 99),
    byReplica: costs.byReplica,
  };
};

const median = (values: number[]): number => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Each figure's median over the runs (per replica for the split of updates). */
export const medianFigures = (all: Figures[]): Figures => {
  const of = (pick: (figures: Figures) => number) => median(all.map(pick));
  return {
    updatesPerSecond: of((x) => x.updatesPerSecond),
    p50: of((x) => x.p50),
    p99: of((x) => x.p99),
    timeouts: of((x) => x.timeouts),
    updates: of((x) => x.updates),
    botCpuMs: of((x) => x.botCpuMs),
    botCpu: of((x) => x.botCpu),
    benchCpu: of((x) => x.benchCpu),
    postgresCpuMs: of((x) => x.postgresCpuMs),
    postgresCpu: of((x) => x.postgresCpu),
    statements: of((x) => x.statements),
    transactions: of((x) => x.transactions),
    begins: of((x) => x.begins),
    execMs: of((x) => x.execMs),
    portalRequests: of((x) => x.portalRequests),
    failedPosts: Math.max(...all.map((x) => x.failedPosts)),
    postP50: of((x) => x.postP50),
    postP99: of((x) => x.postP99),
    byReplica: (all[0]?.byReplica ?? []).map((_, index) => median(all.map((x) => x.byReplica[index] ?? NaN))),
  };
};

export type ReplicasResult = Awaited<ReturnType<typeof runReplicasBench>>;
