import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { User } from 'telegraf/types';
import { createBot, serverFeaturesOf } from '../../src/bot/create-bot.ts';
import { createExports } from '../../src/export/exports.ts';
import { setCommandMenus } from '../../src/bot/commands-menu.ts';
import { parseConfig } from '../../src/config.ts';
import { openPortal } from '../../src/app/portal.ts';
import { startReceiving } from '../../src/app/telegram.ts';
import { startWatchLoop } from '../../src/app/watch-loop.ts';
import { createGuestCardRefresh } from '../../src/app/guest-cards.ts';
import { startLimitSweeper } from '../../src/app/limit-sweeper.ts';
import { createBotMetrics } from '../../src/metrics/bot-metrics.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { loadStatusNames } from '../../src/status-names.ts';
import type { Store } from '../../src/store/store.ts';
import { startBotApi, type BotApiVersion, type BotMessage } from './bot-api/index.ts';
import { startTestPortal } from './test-portal.ts';
import { createAccess } from '../../src/access.ts';
import { createUsage } from '../../src/store/usage.ts';

// The real bot, polling the strict Bot API emulator over HTTP, asking the demo portal (behind a
// fault switch) over HTTP: everything as in production but the two remote ends.

export type HarnessOptions = {
  env?: Record<string, string>;
  demo?: boolean;
  /** How each launch opens the store in DATA_DIR (a test may cap its size, say, or open PostgreSQL). */
  openStore?: (dataDir: string) => Store | Promise<Store>;
  /** The Bot API version the emulator plays (an older server); default the current one. */
  botApiVersion?: BotApiVersion;
};

/** Where the harness's clock starts: 14:05 in Moscow, TIME_ZONE's default. */
export const HARNESS_START = new Date('2026-11-23T11:05:00Z');

export const startHarness = async ({ env = {}, demo = false, openStore = (dir) => openSqliteStore({ dataDir: dir }), botApiVersion }: HarnessOptions = {}) => {
  const api = await startBotApi({ guestMode: true, ...(botApiVersion === undefined ? {} : { botApiVersion }) });
  const testPortal = await startTestPortal();
  const dataDir = mkdtempSync(join(tmpdir(), 'bot-store-'));
  /**
   * The bot's clock, standing still until a test moves it: what views say ("updated"), exports'
   * progress, the watch loop's polls and sends, the portal's breaker. Timers (long polls, deadlines) run in real time.
   */
  const clock = { now: HARNESS_START };
  const nowMs = () => clock.now.getTime();
  const config = parseConfig({
    BOT_TOKEN: api.token,
    TELEGRAM_API_ROOT: api.apiRoot,
    PORTAL_URL: testPortal.url,
    PORTAL_TOKEN: testPortal.token,
    // Each test sees the portal's answer as it is now; the cache has tests of its own.
    PORTAL_CACHE_SECONDS: '0',
    PORTAL_TIMEOUT_MS: '500',
    ALLOW_ANYONE: 'true',
    DATA_DIR: dataDir,
    ...env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  if (config.portal.kind !== 'remote') throw new Error('the harness always configures a portal');
  const metrics = createBotMetrics();
  // /stats's counters, on the harness's clock, as main.ts makes them.
  const usage = createUsage({ timeZone: config.timeZone, now: nowMs, logger });
  const portal = await openPortal(config.portal, logger, metrics, { now: nowMs, usage });
  // As main.ts: STATUS_NAMES_FILE read once, at start.
  const statusNames = await loadStatusNames(config.statusNamesFile);

  /** The bot as main.ts runs it: store opened from DATA_DIR, command menus set, long polling. */
  const launch = async () => {
    const store = await openStore(config.dataDir);
    usage.connect(store.usage);
    // As main.ts: the process's exports made once, beside the bot; they run on the bot's clock here.
    const onFinished = (outcome: 'sent' | 'empty' | 'too_large' | 'failed') => {
      metrics.exports.inc({ outcome });
      usage.exported(outcome);
    };
    const exports = createExports({ portal: portal.portal.bulk, ...config.export, logger, now: () => clock.now, clock: nowMs, onFinished });
    const bot = createBot({ token: api.token, config, portal: portal.portal, store, logger, metrics, demo, now: () => clock.now, exports, statusNames, usage, circuit: () => portal.portal.state() });
    await setCommandMenus(bot.telegram, config.defaultLanguage);
    const receiving = await startReceiving({
      bot,
      config,
      logger,
      metrics: metrics.registry,
      readiness: () => portal.readiness(),
      coordination: store.coordination,
      leaderLeaseMs: config.leaderLeaseMs,
    });
    await api.waitForPolling();
    const access = createAccess(config.access, store.access);
    // As main.ts: live guest cards refreshed beside the watch polls.
    const guestCards = createGuestCardRefresh({ store: store.guestCards, portal: portal.portal.fresh, telegram: bot.telegram, logger, intervalMs: config.watch.intervalMs, timeZone: config.timeZone, me: () => bot.botInfo?.username, now: nowMs });
    const watches = startWatchLoop({ config, access, store: store.watches, settings: store.settings, portal: portal.portal.fresh, telegram: bot.telegram, features: serverFeaturesOf(bot), logger, metrics, now: nowMs, usage, guestCards });
    const limitSweeper = startLimitSweeper({ limits: store.limits, logger });
    return {
      inFlight: receiving.inFlight,
      watches,
      telegram: bot.telegram,
      features: serverFeaturesOf(bot),
      async stop() {
        await Promise.all([receiving.stop(5_000), watches.stop(5_000)]);
        limitSweeper.stop();
        await usage.stop();
        await store.close();
      },
    };
  };
  let instance = await launch();
  /** The extra replicas' watch loops, stopped before the bot. */
  const replicas: Array<() => Promise<void>> = [];

  /** A user writes in a chat (their private chat by default) and the bot's next message there is returned. */
  const ask = async (from: User, text: string, chat: Parameters<typeof api.sendText>[0]['chat'] = undefined): Promise<BotMessage> => {
    const chatId = chat?.id ?? from.id;
    const reply = api.nextBotMessage(chatId);
    api.sendText({ from, text, ...(chat ? { chat } : {}) });
    return reply;
  };

  /**
   * Everything sent so far has been fetched and handled: the emulator has no update waiting and
   * the bot none in flight (the runner fetches again while handlers still run).
   */
  const settle = async () => {
    for (;;) {
      await api.waitForIdle();
      if (instance.inFlight() === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  /** A user presses a button of a bot message; resolves when the press was answered and handled. */
  const press = async (from: User, message: BotMessage, data: string, forged = false) => {
    const id = api.pressButton({ from, message, data, forged });
    const answer = await api.waitForAnswer(id);
    await settle();
    const ephemeralId = message.ephemeral_message_id;
    return { answer, message: ephemeralId === undefined ? api.message(message.chat_id, message.message_id) : api.ephemeralMessage(message.chat_id, from.id, ephemeralId) };
  };

  /** The data of the button whose text is `text` on a message. */
  const button = (message: BotMessage | undefined, text: string): string => {
    const found = message?.buttons.find((candidate) => candidate.text === text);
    if (!found || !('callback_data' in found)) throw new Error(`no button "${text}" in ${JSON.stringify(message?.buttons)}`);
    return found.callback_data;
  };

  return {
    api,
    portal: testPortal,
    dataDir,
    metrics,
    usage,
    logs,
    clock,
    ask,
    press,
    settle,
    button,
    /** Moves the clock on by `ms`, as that much time passing would. */
    advance(ms: number) {
      clock.now = new Date(nowMs() + ms);
    },
    /** The running bot's watch loop: `runOnce()` polls what is due and sends what is pending, now. */
    watches: () => instance.watches,
    /**
     * A second replica's watch loop: its own store opened as the bot's is (PostgreSQL, for
     * replicas), on the same clock, sending through the same Bot API; stopped by `close`.
     */
    async replica() {
      const store = await openStore(config.dataDir);
      const access = createAccess(config.access, store.access);
      const loop = startWatchLoop({ config, access, store: store.watches, settings: store.settings, portal: portal.portal.fresh, telegram: instance.telegram, features: instance.features, logger, metrics, now: nowMs });
      const stop = async () => {
        await loop.stop(5_000);
        await store.close();
      };
      replicas.push(stop);
      return loop;
    },
    /** Stops the bot (gracefully); `up` starts it again on the same data directory. */
    async down() {
      await settle();
      await instance.stop();
    },
    async up() {
      instance = await launch();
    },
    /** Stops the bot and starts a new one on the same data directory, as a redeploy does. */
    async restart() {
      await settle();
      await instance.stop();
      instance = await launch();
    },
    async close() {
      for (const stop of replicas.splice(0)) await stop();
      await instance.stop();
      await api.close();
      await testPortal.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

export type Harness = Awaited<ReturnType<typeof startHarness>>;
