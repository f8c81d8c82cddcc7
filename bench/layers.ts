import { mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import type { Logger } from 'pino';
import { Telegraf, type Middleware, type MiddlewareFn, type Telegram } from 'telegraf';
import type { InlineKeyboardButton, Update, UserFromGetMe } from 'telegraf/types';
import { createBot } from '../src/bot/create-bot.ts';
import { createExports } from '../src/export/exports.ts';
import type { BotContext } from '../src/bot/context.ts';
import { chain } from '../src/bot/feature.ts';
import { createSettingsFeature } from '../src/bot/features/settings.ts';
import { createStartFeature } from '../src/bot/features/start.ts';
import { createOnboardingFeature } from '../src/bot/features/onboarding.ts';
import { createAdminFeature } from '../src/bot/features/admin.ts';
import { createStatsFeature } from '../src/bot/features/stats.ts';
import { createAccessChanges } from '../src/bot/access-changes.ts';
import { createAccessRequests } from '../src/bot/access-requests.ts';
import { createLookups } from '../src/bot/lookups.ts';
import { createAccess, type Access } from '../src/access.ts';
import { createUsage, type Usage } from '../src/store/usage.ts';
import { accessMiddleware } from '../src/bot/middleware/access.ts';
import { contextMiddleware } from '../src/bot/middleware/context.ts';
import { errorBoundary } from '../src/bot/middleware/error-boundary.ts';
import { floodLimit } from '../src/bot/middleware/flood-limit.ts';
import { resumeWatches } from '../src/bot/middleware/resume-watches.ts';
import { updateMetrics } from '../src/bot/middleware/update-metrics.ts';
import { parseConfig, type Config } from '../src/config.ts';
import { sampleData } from '../src/demo/sample-data.ts';
import { createLogger } from '../src/logger.ts';
import { createBotMetrics, type BotMetrics } from '../src/metrics/bot-metrics.ts';
import type { Page, PortalClient } from '../src/portal/client.ts';
import { composePortal } from '../src/portal/resilience/compose.ts';
import { orderSchema, specificationSchema } from '../src/portal/schemas.ts';
import { openStore } from '../src/store/open-store.ts';
import type { Store } from '../src/store/store.ts';
import { toJsonBody } from '../src/telegram/bot-api-client.ts';
import { installBotApiClient } from '../src/telegram/telegraf/bot.ts';
import type { CallApi } from '../src/telegram/telegraf/core.ts';
import { createUpdateHandler } from '../src/telegram/handle-update.ts';
import { createKeyedQueue } from '../src/telegram/keyed-queue.ts';
import { retryingRateLimits } from '../src/telegram/retry-after.ts';
import { callWithinDeadline } from '../src/telegram/update-scope.ts';
import type { Markers } from './sections.ts';

// Issue 14, layer by layer: the bot in this process, updates fed straight to it, so that the CPU
// and the heap allocation of each middleware layer can be told apart. No HTTP anywhere: the portal
// is a fixed page of demo records behind the real cache (src/portal/resilience), the store the
// real sqlite file, and the Bot API an in-process answer behind the bot's own deadline scope, 429
// retry and JSON encoding (only undici and the socket are left out: create-bot.ts has no seam for
// a transport, so the bench replaces `callApi` after installBotApiClient, as that function does).
//   npx node bench/layers.ts [--updates 20000] [--warm-up 5000] [--rounds 3]

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
const BOT_INFO = { id: 123456789, is_bot: true, first_name: 'Bench', username: 'bench_bot', can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: true } as UserFromGetMe;
const USERS = 100;
const FIRST_USER = 1_000;
/** What the portal says it found: enough for five pages of five, so ◀ ▶ have somewhere to go. */
const TOTAL = 23;
const VALUES = sampleData.orders.map((order) => order.SAP_ID as string);

export const LAYERS_MARKERS: Markers = { begin: '<!-- layers bench: written by `npm run bench -- --layers`, kept by the other runs -->', end: '<!-- /layers bench -->' };

type Deps = { config: Config; store: Store; logger: Logger; metrics: BotMetrics; access: Access; usage: Usage };
type Layer = { name: string; make: (deps: Deps) => Middleware<BotContext> };

/** createBot's middleware and the features the lookup updates pass through, in its order (test/bench/layers.test.ts checks it). */
export const LAYERS: Layer[] = [
  { name: 'updateMetrics', make: (d) => updateMetrics(d.metrics) },
  { name: 'errorBoundary', make: (d) => errorBoundary(d.logger, d.config.defaultLanguage) },
  { name: 'contextMiddleware', make: (d) => contextMiddleware({ ...d.config, settings: d.store.settings }) },
  { name: 'accessMiddleware', make: (d) => accessMiddleware(d.access, { limits: d.store.limits, logger: d.logger, seen: d.usage.seen }) },
  { name: 'resumeWatches', make: (d) => resumeWatches(d.store.watches, d.logger) },
  { name: 'floodLimit', make: (d) => floodLimit({ perMinute: d.config.floodLimitPerMinute, limits: d.store.limits, logger: d.logger }) },
  { name: 'createOnboardingFeature', make: (d) => createOnboardingFeature({ access: d.access, watches: d.store.watches, logger: d.logger, now: () => new Date() }) },
  { name: 'createStartFeature', make: (d) => createStartFeature({ demo: false, lookups: createLookups({ portal: fixedPortal(), queries: d.store.queries, logger: d.logger }) }) },
  { name: 'createSettingsFeature', make: (d) => createSettingsFeature({ settings: d.store.settings, defaultLanguage: d.config.defaultLanguage }) },
  {
    name: 'createAdminFeature',
    make: (d) => {
      const now = Date.now;
      const requests = createAccessRequests({ store: d.store.access, access: d.access, settings: d.store.settings, logger: d.logger, defaultLanguage: d.config.defaultLanguage, timeZone: d.config.timeZone, now });
      const changes = createAccessChanges({ access: d.access, store: d.store.access, watches: d.store.watches, logger: d.logger, now });
      return createAdminFeature({ access: d.access, store: d.store.access, seen: d.store.usage, usage: d.usage, changes, requests, now: () => new Date() });
    },
  },
  { name: 'createStatsFeature', make: (d) => createStatsFeature({ access: d.access, store: d.store.usage, usage: d.usage, now: () => new Date() }) },
];

/** Every call answers the same page objects, as the cache does on a hit. */
const fixedPortal = (): PortalClient => {
  const pagesOf = <T>(records: T[]) => {
    const pages = new Map<string, Page<T>>();
    return ({ limit, offset }: { limit: number; offset: number }): Page<T> => {
      const key = `${limit}:${offset}`;
      const page = pages.get(key) ?? { items: records.slice(offset, Math.min(offset + limit, TOTAL)), total: TOTAL, limit, offset };
      pages.set(key, page);
      return page;
    };
  };
  const orders = pagesOf(sampleData.orders.map((order) => orderSchema.parse(order)));
  const specifications = pagesOf(sampleData.specifications.map((spec) => specificationSchema.parse(spec)));
  return { listOrders: async (_query, paging) => orders(paging), listSpecifications: async (_query, paging) => specifications(paging) };
};

type Keyboard = InlineKeyboardButton[][];
type View = { text: string; keyboard: Keyboard };

/** The Bot API in this process: the client's JSON both ways, a minimal valid result, each chat's last keyboard kept. */
const inProcessApi = (logger: Logger) => {
  const lastKeyboard = new Map<number, Keyboard>();
  const counts = { answers: 0, calls: 0 };
  let firstView: View | undefined;
  let messageId = 1;
  /** The fields of the message sent or edited, as JSON; true for any other call. */
  const result = (method: string, payload: Record<string, unknown>): string | true => {
    if (method !== 'sendMessage' && method !== 'editMessageText') return true;
    counts.answers++;
    const chatId = payload.chat_id as number;
    const keyboard = (payload.reply_markup as { inline_keyboard?: Keyboard } | undefined)?.inline_keyboard ?? [];
    lastKeyboard.set(chatId, keyboard);
    firstView ??= { text: payload.text as string, keyboard };
    return `"message_id":${(payload.message_id as number | undefined) ?? messageId++},"date":1780000000,"chat":{"id":${chatId},"type":"private","first_name":"User"}`;
  };
  // The response is parsed as the client parses one: a message, with the request echoed in it
  // for about the size of Telegram's answer (which repeats the text, its entities and the keyboard).
  const send = async (method: string, payload: Record<string, unknown>) => {
    counts.calls++;
    const body = toJsonBody(payload);
    const message = result(method, payload);
    const text = message === true ? '{"ok":true,"result":true}' : `{"ok":true,"result":{${message},"echo":${body}}}`;
    return (JSON.parse(text) as { result: unknown }).result;
  };
  const callApi = ((method: string, payload: Record<string, unknown> = {}, { signal }: { signal?: AbortSignal } = {}) =>
    callWithinDeadline(method, signal, () => send(method, payload))) as unknown as CallApi;
  return {
    counts,
    lastKeyboard,
    firstView: () => firstView,
    /** What installBotApiClient installs, with this in place of its HTTP client. */
    install(bot: Telegraf<BotContext>) {
      installBotApiClient(bot, { apiRoot: 'http://127.0.0.1:9/', token: TOKEN, logger });
      bot.telegram.callApi = callApi;
      (bot.context.telegram as Telegram).callApi = retryingRateLimits(callApi, { logger });
      bot.botInfo = BOT_INFO;
    },
  };
};

/** Stands in for the features: answers as the lookup feature does, with one fixed view. */
const answerWith =
  (view: () => View | undefined): MiddlewareFn<BotContext> =>
  async (ctx) => {
    const { text, keyboard } = view() ?? { text: 'x', keyboard: [] };
    const extra = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true }, reply_markup: { inline_keyboard: keyboard } };
    if (!ctx.callbackQuery) return void (await ctx.reply(text, extra));
    await ctx.answerCbQuery();
    await ctx.editMessageText(text, extra);
  };

/** One update of the stream: a user's `/order <value>`, or their press of a button on their last answer. */
type Step = { user: number; text?: string; data?: string };

const toUpdate = (id: number, { user, text, data }: Step): Update => {
  const from = { id: user, is_bot: false, first_name: 'User', language_code: user % 2 === 0 ? 'ru' : 'en' };
  const chat = { id: user, type: 'private' as const, first_name: 'User' };
  if (data === undefined) return { update_id: id, message: { message_id: id, date: 1_780_000_000, chat, from, text: text!, entities: [{ type: 'bot_command', offset: 0, length: 6 }] } };
  return { update_id: id, callback_query: { id: String(id), from, chat_instance: '1', data, message: { message_id: id - 1, date: 1_780_000_000, chat, text: '…', from: BOT_INFO } } };
};

const random = (seed: number) => () => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;

/** Drives the whole bot as bench/load.ts's users do (▶ 55 %, ◀ 20 %, else a lookup), recording the steps to replay to every chain. */
const recordSteps = async (bot: Telegraf<BotContext>, api: ReturnType<typeof inProcessApi>, count: number): Promise<Step[]> => {
  const next = random(7);
  const steps: Step[] = [];
  for (let index = 0; index < count; index++) {
    const user = FIRST_USER + (index % USERS);
    const buttons = api.lastKeyboard.get(user)?.flat() ?? [];
    const dataOf = (label: string) => buttons.find((button): button is InlineKeyboardButton.CallbackButton => button.text === label && 'callback_data' in button)?.callback_data;
    const [forward, back, roll] = [dataOf('▶'), dataOf('◀'), next()];
    const data = forward && roll < 0.55 ? forward : back && roll < 0.75 ? back : undefined;
    const step: Step = data ? { user, data } : { user, text: `/order ${VALUES[Math.floor(next() * VALUES.length)]}` };
    steps.push(step);
    await bot.handleUpdate(toUpdate(index + 1, step));
  }
  return steps;
};

export type Measured = { cpuUs: number; allocatedBytes: number; answersPerUpdate: number };
type Runner = (updates: Update[]) => Promise<void>;

/**
 * CPU: process.cpuUsage over the measured updates (GC included). Allocation: the heap in use at
 * the end less at the start, plus what every GC between freed (v8.GCProfiler's before/after
 * figures): all bytes allocated on the V8 heap, none of the native ones (sqlite, buffers).
 */
const measure = async (run: Runner, steps: Step[], warmUp: number, api: ReturnType<typeof inProcessApi>): Promise<Measured> => {
  await run(steps.slice(0, warmUp).map((step, index) => toUpdate(index + 1, step)));
  const updates = steps.slice(warmUp).map((step, index) => toUpdate(warmUp + index + 1, step));
  const answers = api.counts.answers;
  const profiler = new GCProfiler();
  profiler.start();
  const heapBefore = getHeapStatistics().used_heap_size;
  const cpu = process.cpuUsage();
  await run(updates);
  const used = process.cpuUsage(cpu);
  const heapAfter = getHeapStatistics().used_heap_size;
  const freed = (profiler.stop()?.statistics ?? []).reduce((sum, gc) => sum + gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize, 0);
  return { cpuUs: (used.user + used.system) / updates.length, allocatedBytes: (heapAfter - heapBefore + freed) / updates.length, answersPerUpdate: (api.counts.answers - answers) / updates.length };
};

const oneByOne =
  (handle: (update: Update) => Promise<void>): Runner =>
  async (updates) => {
    for (const update of updates) await handle(update);
  };

/** As the polling runner takes a batch: into the keyed queue while it has room, CONCURRENCY at once. */
const throughQueue =
  (handle: (update: Update) => Promise<void>, concurrency: number): Runner =>
  async (updates) => {
    const queue = createKeyedQueue({ concurrency, run: handle });
    for (const update of updates) {
      if (queue.room() === 0) await queue.until(() => queue.room() > 0);
      queue.push(update);
    }
    await queue.until(() => queue.pending() === 0);
  };

export type Row = { name: string; kind: 'core' | 'layer' | 'bot' | 'runner'; runs: Measured[] };
/** `load`: the machine's 1-minute load average at the start and at the end, other work sharing the cores. */
export type LayersResult = { updates: number; warmUp: number; rounds: number; presses: number; warnings: number; load: { start: number; end: number }; rows: Row[] };

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const runLayersBench = async ({ updates = 20_000, warmUp = 5_000, rounds = 5, log = () => undefined }: { updates?: number; warmUp?: number; rounds?: number; log?: (line: string) => void } = {}): Promise<LayersResult> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bot-layers-'));
  const loadAtStart = loadAverage();
  const parsed = parseConfig({ BOT_TOKEN: TOKEN, PORTAL_URL: 'http://127.0.0.1:9', PORTAL_TOKEN: 'bench', ALLOW_ANYONE: 'true', DATA_DIR: dataDir });
  // Production's limit would stop these users within the first second; the layer still counts every query.
  const config = { ...parsed, floodLimitPerMinute: Number.MAX_SAFE_INTEGER };
  const devNull = openSync('/dev/null', 'w');
  let warnings = 0;
  // Production's logger and level: one audit line per lookup, written (to /dev/null); warnings and errors counted.
  const logger = createLogger({
    level: 'info',
    secrets: [TOKEN],
    destination: { write: (line: string) => void (writeSync(devNull, line), line.startsWith('{"level":4') || line.startsWith('{"level":5') ? warnings++ : 0) },
  });
  const store = await openStore(config, { logger });
  const portal = composePortal({ base: fixedPortal(), logger, cache: { ttlMs: config.portal.kind === 'remote' ? config.portal.cacheTtlMs : 30_000 } });
  const metrics = createBotMetrics();
  const usage = createUsage({ timeZone: config.timeZone, logger });
  usage.connect(store.usage);
  const deps: Deps = { config, store, logger, metrics, access: createAccess(config.access, store.access), usage };
  const api = inProcessApi(logger);
  try {
    const exports = createExports({ portal: portal.bulk ?? portal, ...config.export, logger, now: () => new Date() });
    const whole = createBot({ token: TOKEN, config, portal, store, logger, metrics, demo: false, exports, usage });
    api.install(whole);
    log(`recording ${warmUp + updates} updates from the whole bot…`);
    const steps = await recordSteps(whole, api, warmUp + updates);
    const chainOf = (count: number, answer: boolean) => {
      const bot = new Telegraf<BotContext>(TOKEN, { telegram: { apiRoot: 'http://127.0.0.1:9/' }, handlerTimeout: Infinity });
      api.install(bot);
      // One chain, as createBot takes its layers.
      bot.use(chain(...LAYERS.slice(0, count).map((layer) => layer.make(deps)), ...(answer ? [answerWith(api.firstView)] : [])));
      return (update: Update) => bot.handleUpdate(update);
    };
    const handler = createUpdateHandler({ bot: whole, logger, deadlineMs: config.handlerDeadlineMs });
    const rows: Array<Omit<Row, 'runs'> & { run: Runner }> = [
      { name: 'Telegraf alone: handleUpdate, no middleware, no answer', kind: 'core', run: oneByOne(chainOf(0, false)) },
      { name: 'Telegraf + a fixed answer (reply, or answerCbQuery + edit)', kind: 'core', run: oneByOne(chainOf(0, true)) },
      ...LAYERS.map((layer, index) => ({ name: `+ ${layer.name}`, kind: 'layer' as const, run: oneByOne(chainOf(index + 1, true)) })),
      { name: 'the whole bot (createBot), bot.handleUpdate', kind: 'bot', run: oneByOne((update) => whole.handleUpdate(update)) },
      { name: '+ createUpdateHandler (update scope, deadline)', kind: 'runner', run: oneByOne(handler) },
      { name: `+ the keyed queue, ${config.concurrency} at once (as the polling runner)`, kind: 'runner', run: throughQueue(handler, config.concurrency) },
    ];
    const runs = rows.map(() => [] as Measured[]);
    // Rounds interleave the rows, so a slower minute of the machine does not land on one row.
    for (let round = 1; round <= rounds; round++) {
      for (const [index, row] of rows.entries()) {
        runs[index]!.push(await measure(row.run, steps, warmUp, api));
        log(`round ${round}/${rounds}: ${row.name}: ${runs[index]!.at(-1)!.cpuUs.toFixed(1)} µs`);
      }
    }
    if (warnings > 0) log(`${warnings} warnings or errors were logged: some updates failed`);
    const presses = steps.slice(warmUp).filter((step) => step.data !== undefined).length;
    return { updates, warmUp, rounds, presses, warnings, load: { start: loadAtStart, end: loadAverage() }, rows: rows.map(({ name, kind }, index) => ({ name, kind, runs: runs[index]! })) };
  } finally {
    portal.close();
    await usage.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const cpu = (row: Row) => median(row.runs.map((run) => run.cpuUs));
const bytes = (row: Row) => median(row.runs.map((run) => run.allocatedBytes));
/** A row's own CPU: the median, over the rounds, of its difference from `base` in the same round (a slower round cancels out). */
const ownCpu = (row: Row, base: Row) => median(row.runs.map((run, round) => run.cpuUs - base.runs[round]!.cpuUs));
const range = (row: Row) => {
  const values = row.runs.map((run) => run.cpuUs);
  return values.length > 1 ? ` (${f(Math.min(...values))}–${f(Math.max(...values))})` : '';
};

/** The table: each row's cumulative figures, and its own (the difference from the row it adds to). */
export const renderLayersTable = (result: LayersResult): string => {
  const { rows } = result;
  const bot = rows.findIndex((row) => row.kind === 'bot');
  // A runner row adds to the whole bot; any other row to the row above it.
  const base = (index: number) => (rows[index]!.kind === 'runner' ? rows[bot]! : rows[index - 1]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const table = rows.map((row, index) => {
    const under = base(index);
    return line([row.name, `${f(cpu(row))}${range(row)}`, under ? f(ownCpu(row, under)) : '', f(bytes(row) / 1024, 2), under ? f((bytes(row) - bytes(under)) / 1024, 2) : '', f(median(row.runs.map((run) => run.answersPerUpdate)), 2)]);
  });
  const [core, answer] = rows;
  const lastLayer = rows[bot - 1]!;
  const whole = rows[bot]!;
  const chain = ownCpu(lastLayer, answer!);
  const feature = ownCpu(whole, core!) - chain;
  const chainKb = (bytes(lastLayer) - bytes(answer!)) / 1024;
  const featureKb = (bytes(whole) - bytes(core!)) / 1024 - chainKb;
  return [
    line(['layers (cumulative, in createBot’s order)', 'CPU µs/update, median (range)', 'own µs', 'heap KiB/update', 'own KiB', 'answers/update']),
    line(['---', '---:', '---:', '---:', '---:', '---:']),
    ...table,
    '',
    `The whole bot, ${f(cpu(whole))} µs and ${f(bytes(whole) / 1024, 2)} KiB per update = Telegraf itself ${f(cpu(core!))} µs (${f(bytes(core!) / 1024, 2)} KiB)` +
      ` + the middleware chain ${f(chain)} µs (${f(chainKb, 2)} KiB; ${f((100 * chain) / cpu(whole), 0)} %)` +
      ` + the lookup feature, portal cache → view → reply, ${f(feature)} µs (${f(featureKb, 2)} KiB; ${f((100 * feature) / cpu(whole), 0)} %).`,
  ].join('\n');
};

export const renderLayersSection = (result: LayersResult, command: string): string =>
  [
    LAYERS_MARKERS.begin,
    '## The per-update path, layer by layer (issue 14)',
    '',
    `Generated by \`${command}\` (bench/layers.ts) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}.`,
    '',
    `In one process, no HTTP: ${result.updates.toLocaleString('en')} updates after ${result.warmUp.toLocaleString('en')} of warm-up, the same for every row, from ${USERS} users (\`/order <SAP no.>\`, and ◀ ▶ presses on the bot's own last answer: ${result.presses.toLocaleString('en')} of the measured updates), fed one at a time (the last row: through the keyed queue). ` +
      'Each row is a fresh Telegraf with the first layers of createBot (the same factories, the real sqlite store, production’s logger to /dev/null) and a fixed answer in place of the features; the whole bot is createBot itself. ' +
      'The portal is a fixed page of demo records behind the real cache; the Bot API answers in process, behind the bot’s own deadline scope, 429 retry and JSON encoding: only undici and the socket are left out. ' +
      `CPU: process.cpuUsage per update, GC included, the median of ${result.rounds} interleaved rounds, and the range; a row’s own CPU is the median of its differences within a round. The machine’s load average: ${f(result.load.start, 2)} at the start, ${f(result.load.end, 2)} at the end (other work on its cores widens the ranges). Heap: bytes allocated on the V8 heap per update (heap in use after less before, plus what each GC freed, from v8.GCProfiler); native memory (sqlite) is not counted. “Own”: the difference from the row above (for the runner rows, from the whole bot).` +
      (result.warnings > 0 ? ` **${result.warnings} warnings or errors were logged: some updates failed.**` : ''),
    '',
    renderLayersTable(result),
    LAYERS_MARKERS.end,
  ].join('\n');

if (import.meta.main) {
  const { values } = parseArgs({ options: { updates: { type: 'string', default: '20000' }, 'warm-up': { type: 'string', default: '5000' }, rounds: { type: 'string', default: '5' } } });
  const result = await runLayersBench({ updates: Number(values.updates), warmUp: Number(values['warm-up']), rounds: Number(values.rounds), log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${renderLayersTable(result)}\n`);
}
