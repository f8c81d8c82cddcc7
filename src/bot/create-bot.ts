import { Telegraf } from 'telegraf';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { PortalClient } from '../portal/client.ts';
import type { BotContext } from './context.ts';
import { createFallbackFeature } from './features/fallback.ts';
import { createLookupFeature } from './features/lookup.ts';
import { createStartFeature } from './features/start.ts';
import { accessMiddleware } from './middleware/access.ts';
import { contextMiddleware } from './middleware/context.ts';
import { errorBoundary } from './middleware/error-boundary.ts';
import type { QueryStore } from './query-store.ts';

export type BotDeps = {
  token: string;
  config: Pick<Config, 'telegramApiRoot' | 'access' | 'defaultLanguage' | 'pageSize'>;
  portal: PortalClient;
  queries: QueryStore;
  logger: Logger;
  /** The embedded demo portal answers: /start says the data is not real. */
  demo: boolean;
};

/** The bot, with its middleware and features in the order they apply; the fallback last. */
export const createBot = ({ token, config, portal, queries, logger, demo }: BotDeps): Telegraf<BotContext> => {
  const bot = new Telegraf<BotContext>(token, { telegram: { apiRoot: config.telegramApiRoot } });

  bot.use(contextMiddleware({ defaultLanguage: config.defaultLanguage, pageSize: config.pageSize }));
  bot.use(errorBoundary(logger));
  bot.use(accessMiddleware(config.access));
  bot.use(createStartFeature({ demo }));
  bot.use(createLookupFeature({ portal, queries }));
  bot.use(createFallbackFeature());

  // Reached only if the boundary itself failed: log, and let the other updates go on.
  bot.catch((error, ctx) => logger.error({ err: error, updateId: ctx.update.update_id }, 'unhandled error'));
  return bot;
};
