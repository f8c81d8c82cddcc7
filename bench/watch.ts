import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startLeanBotApi } from './bot-api.ts';
import { botEnv } from './bot-env.ts';
import type { BenchPostgres } from './postgres.ts';
import { metric, sumMetrics } from './prometheus.ts';
import { cpuMs, freePort, rssMb, start, type Child, botScript } from './proc.ts';
import { sapNumber, startWatchPortal } from './watch-portal.ts';
import { analyse, type Notified } from './watch-analysis.ts';
import { runDigestPhase } from './watch-digests.ts';
import type { Answer } from './bot-api.ts';

// The watch scenario (issue 11): the bot as production starts it, watching `queries` orders from
// `queries` chats, each order in `chatsPerQuery` chats and so as many watches per chat, created
// with /watch as users do. After one interval of warm-up (the first poll of a query only takes
// its snapshot) it is measured over `measured` intervals. With `postgres`, `replicas` bots share
// a fresh database on that server (issue 12): long polling, so one of them polls Telegram and
// all of them poll watches; their figures are summed, and given per replica too. Then every chat
// asks for its daily digest at the same minute (issue 33): the time to send them all, and the
// portal's requests meanwhile against the bot's polls (bench/watch-digests.ts).

export type WatchBenchOptions = {
  queries: number;
  chatsPerQuery: number;
  intervalS: number;
  measured: number;
  root: string;
  temp: string;
  postgres?: { server: BenchPostgres; replicas: number };
};

type Replica = { child: Child; port: number; dataDir: string };

const COUNTS = 'SELECT (SELECT count(*) FROM watches) AS watches, (SELECT count(*) FROM notifications) AS pending';

/** Read from the store itself: the bot's gauges are brought up to date only now and then. */
const sqliteCounts = (dataDir: string) => {
  const db = new DatabaseSync(join(dataDir, 'bot.sqlite'), { readOnly: true });
  try {
    const row = db.prepare(COUNTS).get();
    return { watches: Number(row?.watches), pending: Number(row?.pending) };
  } finally {
    db.close();
  }
};

const postgresCounts = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const row = (await client.query<{ watches: string; pending: string; bytes: string }>(`${COUNTS}, pg_database_size(current_database()) AS bytes`)).rows[0];
    return { watches: Number(row?.watches), pending: Number(row?.pending), mb: Number(row?.bytes) / 2 ** 20 };
  } finally {
    await client.end();
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stderr.write(`${line}\n`);
const FIRST_USER = 20_000;

export const runWatchBench = async ({ queries, chatsPerQuery, intervalS, measured, root, temp, postgres }: WatchBenchOptions) => {
  if (queries % chatsPerQuery !== 0) throw new RangeError('queries must be a multiple of chatsPerQuery');
  const portal = await startWatchPortal(queries);
  const api = await startLeanBotApi();
  const databaseUrl = postgres ? await postgres.server.createDatabase('bench_watch') : undefined;
  const replicas: Replica[] = [];
  for (let index = 0; index < (postgres?.replicas ?? 1); index++) {
    const port = await freePort();
    const dataDir = mkdtempSync(join(temp, 'watch-data-'));
    const env = {
      ...botEnv(api, portal.url, dataDir, port),
      WATCH_INTERVAL_SECONDS: String(intervalS),
      ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    };
    replicas.push({ child: start(join(root, botScript()), env, join(temp, `watch-bot-${index}.log`)), port, dataDir });
  }
  const counts = async () => (databaseUrl ? postgresCounts(databaseUrl) : { ...sqliteCounts(replicas[0]!.dataDir), mb: NaN });
  const scrape = (replica: Replica) => fetch(`http://127.0.0.1:${replica.port}/metrics`).then((res) => res.text());
  const healthy = (replica: Replica) => fetch(`http://127.0.0.1:${replica.port}/healthz`).then((res) => res.ok, () => false);
  const pids = () => replicas.map((replica) => replica.child.process.pid!);
  try {
    for (let waited = 0; !(await Promise.all(replicas.map(healthy))).every(Boolean); waited += 100) {
      const dead = replicas.find((replica) => replica.child.process.exitCode !== null);
      if (dead || waited > 30_000) throw new Error(`the bot did not start:\n${(dead ?? replicas[0]!).child.stderr()}`);
      await sleep(100);
    }

    // A sendMessage is the answer to a /watch that added one (its text begins as the locale's
    // watch.added: the users speak English), or a notification.
    const added = (JSON.parse(readFileSync(join(root, 'locales', 'en.json'), 'utf8')) as { watch: { added: string } }).watch.added.split('{')[0]!;
    const watches = queries * chatsPerQuery;
    let answered = 0;
    let allAnswered: () => void = () => undefined;
    const notified: Notified[] = [];
    // Every notification since the set-up, by chat and text: one told twice is a duplicate.
    const told = new Map<string, number>();
    // The digest phase takes the answers over while it runs.
    let phase: ((answer: Answer) => void) | undefined;
    api.onAnswer((answer) => {
      if (phase) return phase(answer);
      const text = answer.message?.text ?? '';
      if (answer.method !== 'sendMessage') return;
      if (!text.startsWith(added)) {
        notified.push({ at: Date.now(), text });
        const key = `${answer.chatId}\n${text}`;
        told.set(key, (told.get(key) ?? 0) + 1);
      } else if (++answered === watches) allAnswered();
    });
    log(`watch: ${watches} watches of ${queries} queries in ${queries} chats, /watch sent at once, ${replicas.length} replica(s) on ${databaseUrl ? 'PostgreSQL' : 'sqlite'}…`);
    const setupStart = Date.now();
    const done = new Promise<void>((resolve) => (allAnswered = resolve));
    // Chat c watches c, c + stride, …: each query ends up in chatsPerQuery chats.
    const stride = queries / chatsPerQuery;
    for (let k = 0; k < chatsPerQuery; k++) {
      for (let chat = 0; chat < queries; chat++) api.say(FIRST_USER + chat, `/watch ${sapNumber((chat + k * stride) % queries)}`);
    }
    const timer = setTimeout(() => replicas.forEach((replica) => replica.child.process.kill('SIGTERM')), 600_000);
    await Promise.race([done, ...replicas.map((replica) => new Promise((resolve) => replica.child.process.once('exit', resolve)))]);
    clearTimeout(timer);
    if (answered < watches) throw new Error(`only ${answered} of ${watches} /watch answered (10 min at most):\n${replicas[0]!.child.stderr()}`);
    const setupMs = Date.now() - setupStart;
    const stored = (await counts()).watches;
    if (notified.length > 0) log(`  ${notified.length} other answers to /watch (refused?): ${notified[0]?.text}`);
    log(`  ${setupMs} ms to create them; the store holds ${stored}. Warm-up: one interval (${intervalS} s)…`);
    told.clear();

    await sleep(intervalS * 1000 + 5_000);
    const from = Date.now();
    const metricsBefore = await Promise.all(replicas.map(scrape));
    const cpuBefore = pids().map(cpuMs);
    const postgresBefore = postgres?.server.cpuMs() ?? NaN;
    const rssBefore = pids().map(rssMb);
    notified.length = 0;
    for (let second = 0; second < measured * intervalS; second += 10) {
      const step = Math.min(10, measured * intervalS - second);
      await sleep(step * 1000);
      const rates = portal.perSecond(Date.now() - step * 1000, Date.now());
      log(`  ${second + step} s: portal ${(rates.reduce((a, b) => a + b, 0) / rates.length).toFixed(1)} req/s, ${notified.length} notifications so far`);
    }
    const to = Date.now();
    const cpu = pids().map((pid, index) => cpuMs(pid) - cpuBefore[index]!);
    const postgresCpu = (postgres?.server.cpuMs() ?? NaN) - postgresBefore;
    const metricsAfter = await Promise.all(replicas.map(scrape));
    const end = await counts();
    const mb = (file: string) => (existsSync(join(replicas[0]!.dataDir, file)) ? statSync(join(replicas[0]!.dataDir, file)).size / 2 ** 20 : 0);
    const delta = (index: number, name: string) => metric(metricsAfter[index]!, name) - metric(metricsBefore[index]!, name);
    const window = analyse({ portal, notified: [...notified], from, to, metricsBefore: sumMetrics(metricsBefore), metricsAfter: sumMetrics(metricsAfter), chatsPerQuery, queries, intervalS });
    const digests = await runDigestPhase({
      api,
      portal,
      listen: (listener) => (phase = listener),
      scrape: () => Promise.all(replicas.map(scrape)),
      pids,
      firstUser: FIRST_USER,
      chats: queries,
      log,
    });
    log(`  digests: ${digests.received} of ${digests.chats} chats, all sent ${digests.allS.toFixed(1)} s after the minute; portal ${digests.window.requests} requests, polls ${digests.window.polls}`);
    return {
      pendingAtEnd: end.pending,
      ...window,
      digests,
      options: { queries, chatsPerQuery, intervalS, measured },
      backend: databaseUrl ? ('postgres' as const) : ('sqlite' as const),
      setup: { ms: setupMs, watches, stored },
      botCpu: (100 * cpu.reduce((a, b) => a + b, 0)) / (to - from),
      postgresCpu: (100 * postgresCpu) / (to - from),
      rssMb: { start: rssBefore.reduce((a, b) => a + b, 0), end: pids().map(rssMb).reduce((a, b) => a + b, 0) },
      storeMb: databaseUrl ? { kind: 'postgres' as const, database: end.mb } : { kind: 'sqlite' as const, file: mb('bot.sqlite'), wal: mb('bot.sqlite-wal') },
      /** Notifications the same chat got twice with the same text, from the end of the set-up on. */
      duplicates: [...told.values()].reduce((sum, n) => sum + n - 1, 0),
      /** Per replica: updates from Telegram handled since it started (the /watch commands); over the window, watch polls, notifications sent, CPU %. */
      byReplica: replicas.map((_, index) => ({
        updates: metric(metricsAfter[index]!, 'orderbot_updates_total'),
        polls: delta(index, 'orderbot_watch_polls_total'),
        sent: delta(index, 'orderbot_notifications_total{outcome="sent"}'),
        cpu: (100 * cpu[index]!) / (to - from),
      })),
      getUpdates: api.calls.get('getUpdates') ?? 0,
    };
  } finally {
    await Promise.all(replicas.map((replica) => replica.child.stop()));
    await api.close();
    await portal.close();
  }
};

export type WatchBenchResult = Awaited<ReturnType<typeof runWatchBench>>;
