import { createTelegraf } from '../telegram/telegraf/bot.ts';
import type { Telegraf } from '../telegram/telegraf/core.ts';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { MemoryBudget } from '../memory-budget.ts';
import type { BotMetrics } from '../metrics/bot-metrics.ts';
import type { Store } from '../store/store.ts';
import type { BotContext } from './context.ts';
import type { Exports } from '../export/exports.ts';
import { createExportFeature } from './features/export.ts';
import { createFallbackFeature } from './features/fallback.ts';
import { createInlineFeature } from './features/inline.ts';
import { createLookupFeature } from './features/lookup.ts';
import { createRecordFeature } from './features/record.ts';
import { createSettingsFeature } from './features/settings.ts';
import { createStartFeature } from './features/start.ts';
import { createWatchFeature } from './features/watch.ts';
import { createLookups, type LookupPortal } from './lookups.ts';
import { updateMetrics } from './middleware/update-metrics.ts';
import { accessMiddleware } from './middleware/access.ts';
import { contextMiddleware } from './middleware/context.ts';
import { errorBoundary } from './middleware/error-boundary.ts';
import { floodLimit } from './middleware/flood-limit.ts';
import { resumeWatches } from './middleware/resume-watches.ts';
import { createWatches } from '../watch/watches.ts';
import { chain } from './feature.ts';
import { createServerFeatures, type ServerFeatures } from '../telegram/capabilities.ts';

export type BotDeps = {
  token: string;
  config: Pick<Config, 'telegramApiRoot' | 'access' | 'defaultLanguage' | 'pageSize' | 'timeZone' | 'floodLimitPerMinute' | 'watch' | 'telegramFeatures'>;
  portal: LookupPortal;
  metrics?: BotMetrics;
  store: Pick<Store, 'queries' | 'settings' | 'watches' | 'limits'>;
  logger: Logger;
  /** The embedded demo portal answers: /start says the data is not real. */
  demo: boolean;
  now?: () => Date;
  /** The process's exports, made by the composition root, which waits for them when it stops. */
  exports: Exports;
  /** What watch readings may take of the heap, shared by /watch and the poller; made here when not given. */
  watchMemory?: MemoryBudget;
  /** What the Bot API server can do, shared with the watch loop's notifications; made here when not given. */
  features?: ServerFeatures;
};

/** What the Bot API server of a bot made by createBot can do: the watch loop's notifications go by it too. */
export const serverFeaturesOf = (bot: Telegraf<BotContext>): ServerFeatures => {
  const features = bot.context.features;
  if (features === undefined) throw new Error('not a bot made by createBot: it has no server features');
  return features;
};

/** The bot, with its middleware and features in the order they apply; the fallback last. */
export const createBot = ({ token, config, portal, store, logger, demo, metrics, now = () => new Date(), exports, watchMemory, features }: BotDeps): Telegraf<BotContext> => {
  // Telegraf builds each update's context and runs our one chain; why nothing else: createTelegraf.
  const bot = createTelegraf<BotContext>(token, { apiRoot: config.telegramApiRoot, logger });
  // The server's features, read from getMe once it is known (at start), on every update's context.
  const serverFeatures = features ?? createServerFeatures({ mode: config.telegramFeatures, logger });
  serverFeatures.readGetMe(() => bot.botInfo);
  bot.context.features = serverFeatures;
  const lookups = createLookups({ portal, queries: store.queries, logger, now: () => now().getTime() });
  const watches = createWatches({ store: store.watches, portal, config: config.watch, access: config.access, logger, now, ...(watchMemory ? { memory: watchMemory } : {}) });

  // One chain (src/bot/feature.ts), in the order the layers apply; the fallback last.
  bot.use(
    chain(
      ...(metrics ? [updateMetrics(metrics)] : []),
      errorBoundary(logger, config.defaultLanguage),
      contextMiddleware({ ...config, settings: store.settings }),
      // Strangers first: they hear one refusal now and then, never "slow down" on top of it.
      accessMiddleware(config.access, { limits: store.limits, logger, now: () => now().getTime() }),
      // Only a chat that may use the bot brings its paused watches back.
      resumeWatches(store.watches, logger),
      floodLimit({ perMinute: config.floodLimitPerMinute, limits: store.limits, logger }),
      createStartFeature({ demo }),
      createSettingsFeature({ settings: store.settings, defaultLanguage: config.defaultLanguage }),
      createLookupFeature({ lookups, watches, now }),
      createRecordFeature({ lookups, watches, now }),
      createWatchFeature({ lookups, watches, intervalMs: config.watch.intervalMs, now }),
      createExportFeature({ lookups, exports }),
      createInlineFeature({ lookups, access: config.access }),
      createFallbackFeature(),
    ),
  );

  // Reached only if the boundary itself failed: log, and let the other updates go on.
  bot.catch((error, ctx) => logger.error({ err: error, updateId: ctx.update.update_id }, 'unhandled error'));
  return bot;
};
