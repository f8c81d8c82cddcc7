import { resolve } from 'node:path';
import { createBot, serverFeaturesOf } from './bot/create-bot.ts';
import { createExports } from './export/exports.ts';
import { removeStaleExportDirs } from './export/stale-dirs.ts';
import { openPortal } from './app/portal.ts';
import { startReceiving } from './app/telegram.ts';
import { startWatchLoop, type WatchLoop } from './app/watch-loop.ts';
import { setCommandMenusOnce } from './app/command-menus.ts';
import { ConfigError, parseConfig } from './config.ts';
import { SecretFileError, withSecretFiles } from './secret-files.ts';
import { loadStatusNames, StatusNamesError, type StatusNames } from './status-names.ts';
import { createWatchMemory } from './memory-budget.ts';
import { createTranslator, resolveLocale } from './i18n.ts';
import { TokenFileError } from './portal/resilience/token-source.ts';
import { createBotMetrics } from './metrics/bot-metrics.ts';
import { createLogger, flushStandardError, logProcessWarnings } from './logger.ts';
import { databaseSecrets } from './store/database-secrets.ts';
import { StoreOpenError } from './store/errors.ts';
import { StoreVersionError } from './store/errors.ts';
import { openStore } from './store/open-store.ts';
import type { Store } from './store/store.ts';
import { allReady, watchStoreHealth } from './app/store-health.ts';
import { startHttpServer } from './app/http-server.ts';
import { startLimitSweeper } from './app/limit-sweeper.ts';
import { createAccess } from './access.ts';
import { createUsage } from './store/usage.ts';
import { createGuestCardRefresh } from './app/guest-cards.ts';
import type { ExportOutcome } from './export/run-export.ts';

// The composition root, and the only module with side effects: environment → config → portal →
// store → bot → updates (polling, webhook or the console chat), and the signals that stop it.

/** How long an ending bot waits for a lagging log reader to take the last lines. */
const LOG_FLUSH_MS = 2_000;

/** A configuration, store or token file the bot cannot run with: said on stderr, exit status 2. */
const refuse = async (error: unknown): Promise<never> => {
  const known = [ConfigError, StoreVersionError, StoreOpenError, TokenFileError, SecretFileError, StatusNamesError].some((type) => error instanceof type);
  if (!known || !(error instanceof Error)) throw error;
  // The lines logged before it, then this one, reach a lagging log reader before the process ends.
  await flushStandardError(LOG_FLUSH_MS);
  process.stderr.write(`${error.message}\n`);
  await flushStandardError(LOG_FLUSH_MS);
  process.exit(2);
};

let config: ReturnType<typeof parseConfig>;
let statusNames: StatusNames;
try {
  config = parseConfig(withSecretFiles(process.env));
  statusNames = await loadStatusNames(config.statusNamesFile);
} catch (error) {
  throw await refuse(error); // never thrown: refuse exits
}
const consoleMode = config.botToken === undefined;
if (consoleMode) {
  // The console's user runs the bot on their own machine: its admin (/users, /stats work there).
  const { CONSOLE_USER_ID } = await import('./console/console-user.ts');
  config = { ...config, access: { ...config.access, adminIds: new Set([...config.access.adminIds, CONSOLE_USER_ID]) } };
}
const secrets = [
  config.botToken ?? '',
  config.webhook?.secret ?? '',
  config.portal.kind === 'remote' ? (config.portal.token ?? '') : '',
  ...databaseSecrets(config.database?.url),
];
// The portal token in use: the one read from PORTAL_TOKEN_FILE, and again after each rotation.
let portalToken = () => '';
// In the console chat the log shares the terminal: only warnings unless asked for more.
const logger = createLogger({
  level: config.logLevel ?? (consoleMode ? 'warn' : 'info'),
  secrets: () => [...secrets, portalToken()].filter(Boolean),
});
// Node's warnings (ExcelJS's zip library calls the deprecated Buffer()) as log lines: the log stays JSON.
logProcessWarnings(logger);
// An error no handler caught (a bug) ends the process, as Node would, but as a log line like every
// other, written out with those before it (a lagging reader gets up to LOG_FLUSH_MS) before the exit.
process.once('uncaughtException', (error) => {
  logger.fatal({ err: error }, 'uncaught error: the bot stops');
  void flushStandardError(LOG_FLUSH_MS).finally(() => process.exit(1));
});
// A bot in Telegram on the embedded demo portal: anyone may use it, and nothing else would say so.
if (!consoleMode && config.portal.kind === 'demo') {
  logger.warn(
    { portal: 'demo', access: 'anyone' },
    "BOT_TOKEN is set and PORTAL_URL is not: anyone on Telegram may use this bot, and it answers from the demo portal's made-up records; set PORTAL_URL and PORTAL_TOKEN (and ALLOWED_USER_IDS / ALLOWED_CHAT_IDS) for real use",
  );
}
const metrics = createBotMetrics();
// /stats's counters: counted in memory from the start (the portal's calls too), saved once the store is open.
const usage = createUsage({ timeZone: config.timeZone, logger });
let portal: Awaited<ReturnType<typeof openPortal>>;
try {
  portal = await openPortal(config.portal, logger, metrics, { usage });
} catch (error) {
  throw await refuse(error); // never thrown: refuse exits
}
portalToken = portal.token;
// The sqlite file in DATA_DIR, or PostgreSQL shared by replicas (waited for while it is down).
let store: Store;
// While the bot starts (a database that is down is waited for, then Telegram's getMe retried),
// /healthz says alive and /readyz 503, so that an orchestrator neither restarts the bot nor sends
// it traffic; the real server takes the port over once receiving starts.
let startingDetail: Record<string, unknown> = { starting: true, ...(config.database ? { store: 'postgres', storeReachable: false } : {}) };
const starting =
  config.port !== undefined && !consoleMode
    ? await startHttpServer({ port: config.port, logger, metrics: metrics.registry, starting: true, readiness: () => ({ ready: false, detail: startingDetail }) })
    : undefined;
try {
  store = await openStore(config, { logger });
} catch (error) {
  await starting?.close(0);
  throw await refuse(error); // never thrown: refuse exits
}
startingDetail = { starting: true, store: store.backend, storeReachable: true };
usage.connect(store.usage);
const access = createAccess(config.access, store.access);
const storeHealth = watchStoreHealth({ store, logger });
const limitSweeper = startLimitSweeper({ limits: store.limits, logger });
// Exports run beside the updates: stopping waits for them (SHUTDOWN_GRACE_MS), then stops them.
// Through the cache, but an export's fifty large pages are not kept in it.
const onExportFinished = (outcome: ExportOutcome) => {
  metrics.exports.inc({ outcome });
  usage.exported(outcome);
};
const exports = createExports({ portal: portal.portal.bulk, ...config.export, logger, now: () => new Date(), onFinished: onExportFinished });
removeStaleExportDirs({ logger });
// What /watch and the polls read is held in one share of the heap.
const watchMemory = createWatchMemory(config.watch.memoryBytes);
const botFor = (token: string, telegramApiRoot: string) =>
  createBot({ token, config: { ...config, telegramApiRoot }, portal: portal.portal, store: store, logger, metrics, demo: portal.demo !== undefined, exports, watchMemory, statusNames, usage, circuit: () => portal.portal.state() });
/** Issue 32: live guest cards, refreshed beside the watch polls; none when GUEST_CARD_LIVE_DAYS is 0. */
const guestCardsFor = (bot: ReturnType<typeof botFor>) =>
  config.guestCardLiveMs > 0
    ? createGuestCardRefresh({ store: store.guestCards, portal: portal.portal.fresh, telegram: bot.telegram, logger, intervalMs: config.watch.intervalMs, timeZone: config.timeZone, me: () => bot.botInfo?.username })
    : undefined;
/** Polls what chats watch and tells them what changed, through the bot's Bot API client. */
const watchLoopFor = (bot: ReturnType<typeof botFor>) =>
  startWatchLoop({ config, access, store: store.watches, settings: store.settings, portal: portal.portal.fresh, telegram: bot.telegram, features: serverFeaturesOf(bot), logger, metrics, memory: watchMemory, usage, guestCards: guestCardsFor(bot) });

/** What both modes stop last, once nothing uses the store or the portal any more. */
const closeServices = async () => {
  storeHealth.stop();
  limitSweeper.stop();
  await usage.stop();
  await store.close();
  await portal.close();
};

let watchLoop: WatchLoop | undefined;
if (consoleMode) {
  const languageCode = config.consoleLanguage;
  const t = createTranslator(resolveLocale(languageCode, config.defaultLanguage));
  // Loaded only for the console chat (no bot token): a bot talking to Telegram never needs it.
  const { runConsoleChat } = await import('./console/console-chat.ts');
  await runConsoleChat({
    input: process.stdin,
    output: process.stdout,
    languageCode,
    intro: t('console.intro'),
    logger,
    // Files the bot sends are saved beside its data (git ignores data/), their paths printed.
    saveDir: resolve(config.dataDir, 'exports'),
    // Piped input ends at once: the files still being made are saved before the chat closes.
    idle: exports.idle,
    createBot: (apiRoot, token) => {
      const bot = botFor(token, apiRoot);
      watchLoop = watchLoopFor(bot);
      return bot;
    },
  });
  await watchLoop?.stop();
  await closeServices();
} else {
  const bot = botFor(config.botToken!, config.telegramApiRoot);
  const probe = setInterval(() => void portal.probe(), 60_000).unref();
  let receiving: Awaited<ReturnType<typeof startReceiving>> | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (reason: string, exitCode: number) =>
    (stopping ??= (async () => {
      logger.info({ reason }, 'stopping: no new updates, finishing those in flight');
      clearInterval(probe);
      await Promise.all([starting?.close(0), receiving?.stop(config.shutdownGraceMs), watchLoop?.stop(config.shutdownGraceMs), exports.stop(config.shutdownGraceMs)]);
      await closeServices();
      logger.info('stopped');
      await flushStandardError(LOG_FLUSH_MS);
      process.exit(exitCode);
    })());
  process.once('SIGINT', () => void stop('SIGINT', 0));
  process.once('SIGTERM', () => void stop('SIGTERM', 0));
  try {
    receiving = await startReceiving({
      bot,
      config: config,
      logger,
      metrics: metrics.registry,
      readiness: () => allReady(portal.readiness(), storeHealth.readiness()),
      coordination: store.coordination,
      leaderLeaseMs: config.leaderLeaseMs,
      orderAcrossReplicas: store.backend === 'postgres',
      onSecret: (secret) => secrets.push(secret),
      beforeListen: async () => starting?.close(0),
    });
  } catch (error) {
    logger.fatal({ err: error }, 'the bot could not start');
    await stop('start failed', 1);
  }
  watchLoop = watchLoopFor(bot);
  void portal.probe();
  setCommandMenusOnce(bot.telegram, config.defaultLanguage, store.coordination).catch((error: unknown) => logger.warn({ err: error }, 'could not set the command menus'));
  receiving?.done.catch((error: unknown) => {
    logger.fatal({ err: error }, 'Telegram refused the bot for good');
    void stop('telegram refused', 1);
  });
}
