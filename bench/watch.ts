import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startLeanBotApi } from './bot-api.ts';
import { PORTAL_TOKEN } from './portal.ts';
import { cpuMs, freePort, rssMb, start } from './proc.ts';
import { sapNumber, startWatchPortal } from './watch-portal.ts';
import { analyse, type Notified } from './watch-analysis.ts';

// The watch scenario (issue 11): the bot as production starts it, watching `queries` orders from
// `queries` chats, each order in `chatsPerQuery` chats and so as many watches per chat, created
// with /watch as users do. After one interval of warm-up (the first poll of a query only takes
// its snapshot) it is measured over `measured` intervals.

export type WatchBenchOptions = { queries: number; chatsPerQuery: number; intervalS: number; measured: number; root: string; temp: string };

/** Read from the bot's store file itself: the bot's gauges are brought up to date only now and then. */
const storeCounts = (dataDir: string) => {
  const db = new DatabaseSync(join(dataDir, 'bot.sqlite'), { readOnly: true });
  try {
    const row = db.prepare('SELECT (SELECT count(*) FROM watches) AS watches, (SELECT count(*) FROM notifications) AS pending').get();
    return { watches: Number(row?.watches), pending: Number(row?.pending) };
  } finally {
    db.close();
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stderr.write(`${line}\n`);
const FIRST_USER = 20_000;

export const runWatchBench = async ({ queries, chatsPerQuery, intervalS, measured, root, temp }: WatchBenchOptions) => {
  if (queries % chatsPerQuery !== 0) throw new RangeError('queries must be a multiple of chatsPerQuery');
  const portal = await startWatchPortal(queries);
  const api = await startLeanBotApi();
  const port = await freePort();
  const dataDir = mkdtempSync(join(temp, 'watch-data-'));
  const env = {
    BOT_TOKEN: api.token,
    TELEGRAM_API_ROOT: api.apiRoot,
    PORTAL_URL: portal.url,
    PORTAL_TOKEN,
    ALLOW_ANYONE: 'true',
    DATA_DIR: dataDir,
    PORT: String(port),
    WATCH_INTERVAL_SECONDS: String(intervalS),
  };
  const bot = start(join(root, 'src/main.ts'), env, join(temp, 'watch-bot.log'));
  const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  try {
    for (let waited = 0; !(await fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.ok, () => false)); waited += 100) {
      if (bot.process.exitCode !== null || waited > 30_000) throw new Error(`the bot did not start:\n${bot.stderr()}`);
      await sleep(100);
    }

    // A sendMessage is the answer to a /watch that added one (its text begins as the locale's
    // watch.added: the users speak English), or a notification.
    const added = (JSON.parse(readFileSync(join(root, 'locales', 'en.json'), 'utf8')) as { watch: { added: string } }).watch.added.split('{')[0]!;
    const watches = queries * chatsPerQuery;
    let answered = 0;
    let allAnswered: () => void = () => undefined;
    const notified: Notified[] = [];
    api.onAnswer((answer) => {
      const text = answer.message?.text ?? '';
      if (answer.method !== 'sendMessage') return;
      if (!text.startsWith(added)) notified.push({ at: Date.now(), text });
      else if (++answered === watches) allAnswered();
    });
    log(`watch: ${watches} watches of ${queries} queries in ${queries} chats, /watch sent at once…`);
    const setupStart = Date.now();
    const done = new Promise<void>((resolve) => (allAnswered = resolve));
    // Chat c watches c, c + stride, …: each query ends up in chatsPerQuery chats.
    const stride = queries / chatsPerQuery;
    for (let k = 0; k < chatsPerQuery; k++) {
      for (let chat = 0; chat < queries; chat++) api.say(FIRST_USER + chat, `/watch ${sapNumber((chat + k * stride) % queries)}`);
    }
    const timer = setTimeout(() => bot.process.kill('SIGTERM'), 600_000);
    await Promise.race([done, new Promise((resolve) => bot.process.once('exit', resolve))]);
    clearTimeout(timer);
    if (answered < watches) throw new Error(`only ${answered} of ${watches} /watch answered (10 min at most):\n${bot.stderr()}`);
    const setupMs = Date.now() - setupStart;
    const stored = storeCounts(dataDir).watches;
    if (notified.length > 0) log(`  ${notified.length} other answers to /watch (refused?): ${notified[0]?.text}`);
    log(`  ${setupMs} ms to create them; the store holds ${stored}. Warm-up: one interval (${intervalS} s)…`);

    await sleep(intervalS * 1000 + 5_000);
    const from = Date.now();
    const metricsBefore = await scrape();
    const cpuBefore = cpuMs(bot.process.pid!);
    const rssBefore = rssMb(bot.process.pid!);
    notified.length = 0;
    for (let second = 0; second < measured * intervalS; second += 10) {
      const step = Math.min(10, measured * intervalS - second);
      await sleep(step * 1000);
      const rates = portal.perSecond(Date.now() - step * 1000, Date.now());
      log(`  ${second + step} s: portal ${(rates.reduce((a, b) => a + b, 0) / rates.length).toFixed(1)} req/s, ${notified.length} notifications so far`);
    }
    const to = Date.now();
    const cpu = cpuMs(bot.process.pid!) - cpuBefore;
    const metricsAfter = await scrape();
    const mb = (file: string) => (existsSync(join(dataDir, file)) ? statSync(join(dataDir, file)).size / 2 ** 20 : 0);
    const { pending } = storeCounts(dataDir);
    return {
      pendingAtEnd: pending,
      ...analyse({ portal, notified: [...notified], from, to, metricsBefore, metricsAfter, chatsPerQuery, queries, intervalS }),
      options: { queries, chatsPerQuery, intervalS, measured },
      setup: { ms: setupMs, watches, stored },
      botCpu: (100 * cpu) / (to - from),
      rssMb: { start: rssBefore, end: rssMb(bot.process.pid!) },
      storeMb: { file: mb('bot.sqlite'), wal: mb('bot.sqlite-wal') },
    };
  } finally {
    await bot.stop();
    await api.close();
    await portal.close();
  }
};

export type WatchBenchResult = Awaited<ReturnType<typeof runWatchBench>>;
