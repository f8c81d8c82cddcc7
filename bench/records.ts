import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLeanBotApi, type Answer, type BotMessage, type LeanBotApi } from './bot-api.ts';
import { botEnv } from './bot-env.ts';
import { percentile } from './load.ts';
import { startDelayedServer } from './portal.ts';
import { sampleData } from '../src/demo/sample-data.ts';
import { botScript, cpuMs, machine, nodeFlags, start, type Child } from './proc.ts';
import type { Markers } from './sections.ts';

// Issue 31's record view: an order of 60 positions (the demo's 0007300321) opened (one found: at once)
// and then refreshed again and again (its prepayment moving at every portal request, so that each
// refresh is an edit Telegram takes), each user with one action in flight, as fast as the bot answers: the bot drawing it as a rich message (TELEGRAM_FEATURES=auto: one table, on the lean
// Bot API that plays a current server) against today's HTML view (legacy: part 1 of its parts, in
// the results' message). Fresh bots of each kind take turns, run after run, on one portal; the
// machine is shared, so each run's figures are kept and the load average is read.

export const RECORDS_MARKERS: Markers = { begin: '<!-- records bench: written by `npm run bench` and `npm run bench -- --records`, kept by the other runs -->', end: '<!-- /records bench -->' };

const ORDER = '/order 0007300321';
const REFRESH = '🔄 Refresh';
const VARIANTS = ['auto', 'legacy'] as const;
type Variant = (typeof VARIANTS)[number];

export type RecordsOptions = { root: string; temp: string; runs: number; users: number; seconds: number; warmUpSeconds: number; log: (line: string) => void };
type Measured = { updatesPerSecond: number; cpuMsPerUpdate: number; p50: number; p99: number; refreshes: number; bytesPerAnswer: number };
export type RecordsResult = { runs: Array<Record<Variant, Measured>>; load: { start: number; end: number } };

/**
 * The portal, answering the order with its prepayment changed at every request: each refresh then
 * draws a message that differs from the last (Telegram refuses an edit that changes nothing, and
 * the bot then sends nothing), as a record that moves between two looks does.
 */
const startMovingPortal = () => {
  const order = sampleData.orders.find((candidate) => candidate.SAP_ID === ORDER.split(' ')[1]);
  if (order === undefined) throw new Error('records bench: the demo data has no order 0007300321');
  let requests = 0;
  return startDelayedServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://portal');
    requests += 1;
    const limit = Number(url.searchParams.get('limit') ?? 5);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const result = offset === 0 ? [{ ...order, PREPAYMENT: 1_000_000 + requests }] : [];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, error_code: null, data: { result, total: 1, limit, offset } }));
  });
};

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Resolves each chat's next answer that is a message (a press's "refreshing" alert is not one). */
const answers = (api: LeanBotApi) => {
  const waiting = new Map<number, (answer: Answer) => void>();
  api.onAnswer((answer) => {
    if (answer.message === undefined) return;
    const resolve = waiting.get(answer.chatId);
    waiting.delete(answer.chatId);
    resolve?.(answer);
  });
  return (chatId: number, act: () => void) =>
    new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`records bench: user ${chatId} got no answer in 10 s`)), 10_000);
      waiting.set(chatId, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      act();
    });
};

const dataOf = (message: BotMessage, text: string): string => {
  const button = message.keyboard.flat().find((candidate) => candidate.text === text);
  if (!button || !('callback_data' in button)) throw new Error(`records bench: no "${text}" button in ${JSON.stringify(message.keyboard)}`);
  return button.callback_data;
};

/** Each user opens the order's record once, then refreshes it until the time is up; only the refreshes of the measured stretch count. */
const drive = async (api: LeanBotApi, child: Child, firstUser: number, options: RecordsOptions): Promise<Measured> => {
  const next = answers(api);
  const records = await Promise.all(
    Array.from({ length: options.users }, async (_, index) => {
      const user = firstUser + index;
      // One order found: it opens at once.
      return { user, record: (await next(user, () => api.say(user, ORDER))).message! };
    }),
  );
  const stretch = async (ms: number) => {
    const samples: number[] = [];
    let bytes = 0;
    const pid = child.process.pid!;
    const cpuBefore = cpuMs(pid);
    const started = performance.now();
    const deadline = started + ms;
    await Promise.all(
      records.map(async ({ user, record }) => {
        const refresh = dataOf(record, REFRESH);
        while (performance.now() < deadline) {
          const at = performance.now();
          const answer = await next(user, () => api.press(user, record, refresh));
          samples.push(answer.at - at);
          bytes += answer.message?.text.length ?? 0;
        }
      }),
    );
    const elapsed = performance.now() - started;
    const sorted = samples.sort((a, b) => a - b);
    return {
      updatesPerSecond: samples.length / (elapsed / 1000),
      cpuMsPerUpdate: (cpuMs(pid) - cpuBefore) / samples.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      refreshes: samples.length,
      bytesPerAnswer: bytes / Math.max(1, samples.length),
    };
  };
  await stretch(options.warmUpSeconds * 1000);
  return stretch(options.seconds * 1000);
};

export const runRecordsBench = async (options: RecordsOptions): Promise<RecordsResult> => {
  const portal = await startMovingPortal();
  const result: RecordsResult = { runs: [], load: { start: loadAverage(), end: NaN } };
  let firstUser = 3_000_000;
  try {
    for (let run = 1; run <= options.runs; run++) {
      const byVariant: Partial<Record<Variant, Measured>> = {};
      // Taking turns, the first of each run alternating: a change in the machine's speed weighs on both alike.
      for (const variant of run % 2 === 1 ? VARIANTS : [...VARIANTS].reverse()) {
        const api = await startLeanBotApi();
        const env = { ...botEnv(api, portal.url, mkdtempSync(join(options.temp, 'data-'))), TELEGRAM_FEATURES: variant, FLOOD_LIMIT_PER_MINUTE: '10000' };
        const child = start(join(options.root, botScript()), env, join(options.temp, `records-${variant}-${run}.log`));
        try {
          const measured = await drive(api, child, firstUser, options).catch((error: unknown) => {
            throw new Error(`${(error as Error).message}; the bot's log:\n${child.stderr().slice(-3000)}`);
          });
          firstUser += options.users;
          options.log(`  run ${run}, ${variant}: ${measured.updatesPerSecond.toFixed(0)} refreshes/s, ${measured.cpuMsPerUpdate.toFixed(3)} CPU ms/update, p50/p99 ${measured.p50.toFixed(1)}/${measured.p99.toFixed(1)} ms, ${measured.bytesPerAnswer.toFixed(0)} characters an answer, load ${loadAverage()}`);
          byVariant[variant] = measured;
        } finally {
          await child.stop();
          await api.close();
        }
      }
      result.runs.push(byVariant as Record<Variant, Measured>);
    }
  } finally {
    await portal.close();
  }
  result.load.end = loadAverage();
  return result;
};

export const renderRecordsSection = (result: RecordsResult, options: Pick<RecordsOptions, 'users' | 'seconds' | 'warmUpSeconds'>, command: string): string => {
  const m = machine();
  const ratios = result.runs.map((run) => run.auto.cpuMsPerUpdate / run.legacy.cpuMsPerUpdate);
  const ratio = median(ratios);
  const f = (value: number, digits = 3) => value.toFixed(digits);
  const column = (variant: Variant, pick: (measured: Measured) => number, digits = 3) => {
    const values = result.runs.map((run) => pick(run[variant]));
    return `${f(median(values), digits)} (${f(Math.min(...values), digits)}–${f(Math.max(...values), digits)})`;
  };
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    RECORDS_MARKERS.begin,
    '## Record view (issue 31)',
    '',
    `Generated by \`${command}\` (bench/records.ts) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${m.cores} cores (${m.cpu}), Node ${m.node}, node flags \`${nodeFlags().join(' ')}\`; load average (1 min) ${result.load.start} at the start, ${result.load.end} at the end.`,
    '',
    `${options.users} users each open the record of order 0007300321 (60 positions), which opens at once (one order found), and then press 🔄 Refresh on it as soon as it is answered (Refresh skips the portal cache: each is a portal call and a full render), ${options.warmUpSeconds} s of warm-up then ${options.seconds} s measured; a portal at 0 ms answering the demo's order with its prepayment moved at every request (an edit that changes nothing Telegram refuses, and the bot then sends nothing). **auto**: the bot as production runs it on a current Bot API server (the lean Bot API plays 10.3), each record a rich message with one table of its 60 positions; **legacy**: TELEGRAM_FEATURES=legacy, today's HTML view (the record's first part of its parts). A fresh bot per variant and run, the two taking turns, the first alternating. CPU ms/update: user + system time of the bot process from /proc over the measured stretch, divided by the refreshes answered. Medians of ${result.runs.length} runs, ranges in brackets.`,
    '',
    row(['variant', 'refreshes/s', 'CPU ms/update', 'latency p50 / p99 ms', 'characters an answer']),
    row(['---', '---:', '---:', '---:', '---:']),
    ...VARIANTS.map((variant) =>
      row([variant === 'auto' ? 'auto: rich message, 60 positions in one table' : "legacy: today's HTML view, part 1", column(variant, (x) => x.updatesPerSecond, 0), column(variant, (x) => x.cpuMsPerUpdate), `${column(variant, (x) => x.p50, 1)} / ${column(variant, (x) => x.p99, 1)}`, column(variant, (x) => x.bytesPerAnswer, 0)]),
    ),
    '',
    row(['budget (issue 31)', 'measured', '']),
    row(['---', '---', '---']),
    row(["CPU per update of the rich record view ≤ 1.2× today's HTML record view", `${f(ratio, 2)} (${f(Math.min(...ratios), 2)}–${f(Math.max(...ratios), 2)})×`, ratio <= 1.2 ? 'met' : '**missed**']),
    '',
    `Runs (auto / legacy CPU ms per update): ${result.runs.map((run) => `${f(run.auto.cpuMsPerUpdate)} / ${f(run.legacy.cpuMsPerUpdate)}`).join('; ')}.`,
    RECORDS_MARKERS.end,
  ].join('\n');
};
