import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { createBot } from './bot/create-bot.ts';
import { setCommandMenus } from './bot/commands-menu.ts';
import { ConfigError, parseConfig } from './config.ts';
import { runConsoleChat } from './console/console-chat.ts';
import { startDemoPortal } from './demo/portal-server.ts';
import { createTranslator, resolveLocale } from './i18n.ts';
import { createPortalClient } from './portal/client.ts';
import { openSqliteStore } from './store/sqlite-store.ts';
import { StoreVersionError } from './store/migrations.ts';

// The composition root, and the only module with side effects: environment → config → portal →
// bot → polling (or the console chat), and the signals that stop it.

const readConfig = () => {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
};

const config = readConfig();
const consoleMode = config.botToken === undefined;
// In the console chat the log shares the terminal: only warnings unless asked for more.
const logger = pino({ level: config.logLevel ?? (consoleMode ? 'warn' : 'info') }, pino.destination(2));

// No portal configured: the embedded demo portal answers, on loopback, with a token of its own.
const startPortal = async () => {
  if (config.portal.kind === 'remote') return { ...config.portal, demo: undefined };
  const token = randomBytes(16).toString('hex');
  const demo = await startDemoPortal({ token });
  return { url: demo.url, token, timeoutMs: config.portal.timeoutMs, demo };
};
const { demo, ...target } = await startPortal();
const portal = createPortalClient({ baseUrl: target.url, token: target.token, timeoutMs: target.timeoutMs });
const openStore = () => {
  try {
    return openSqliteStore({ dataDir: config.dataDir });
  } catch (error) {
    if (!(error instanceof StoreVersionError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
};
const store = openStore();
const botFor = (token: string, telegramApiRoot: string) =>
  createBot({ token, config: { ...config, telegramApiRoot }, portal, store, logger, demo: demo !== undefined });

if (consoleMode) {
  const languageCode = process.env.LANG?.slice(0, 2);
  const t = createTranslator(resolveLocale(languageCode, config.defaultLanguage));
  await runConsoleChat({
    input: process.stdin,
    output: process.stdout,
    languageCode,
    intro: t('console.intro'),
    createBot: (apiRoot, token) => botFor(token, apiRoot),
  });
  store.close();
  await demo?.close();
} else {
  const bot = botFor(config.botToken!, config.telegramApiRoot);
  const stop = async (signal: string) => {
    logger.info({ signal }, 'stopping');
    bot.stop(signal);
    store.close();
    await demo?.close();
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  bot
    .launch(() => {
      logger.info({ username: bot.botInfo?.username, demo: demo !== undefined }, 'polling for updates');
      setCommandMenus(bot.telegram, config.defaultLanguage).catch((error: unknown) =>
        logger.warn({ err: error }, 'could not set the command menus'),
      );
    })
    .catch((error: unknown) => {
      logger.fatal({ err: error }, 'the bot could not start');
      process.exitCode = 1;
      void demo?.close();
    });
}
