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
import { createWatchOptionsFeature } from './features/watch-options.ts';
import { createTimeZoneFeature } from './features/time-zone.ts';
import { createDigestFeature } from './features/digest.ts';
import { createAdminCheck } from './chat-admins.ts';
import { createChatDigest } from '../watch/chat-digest.ts';
import { createWatchOptions } from '../watch/watch-options.ts';
import { createLookups, type LookupPortal } from './lookups.ts';
import { updateMetrics } from './middleware/update-metrics.ts';
import { accessMiddleware } from './middleware/access.ts';
import { contextMiddleware } from './middleware/context.ts';
import { errorBoundary } from './middleware/error-boundary.ts';
import { floodLimit } from './middleware/flood-limit.ts';
import { resumeWatches } from './middleware/resume-watches.ts';
import { createWatches } from '../watch/watches.ts';
import { chain } from './feature.ts';

export type BotDeps = {
  token: string;
  config: Pick<Config, 'telegramApiRoot' | 'access' | 'defaultLanguage' | 'pageSize' | 'timeZone' | 'floodLimitPerMinute' | 'watch'>;
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
};

/** The bot, with its middleware and features in the order they apply; the fallback last. */
export const createBot = ({ token, config, portal, store, logger, demo, metrics, now = () => new Date(), exports, watchMemory }: BotDeps): Telegraf<BotContext> => {
  // Telegraf builds each update's context and runs our one chain; why nothing else: createTelegraf.
  const bot = createTelegraf<BotContext>(token, { apiRoot: config.telegramApiRoot, logger });
  const lookups = createLookups({ portal, queries: store.queries, logger, now: () => now().getTime() });
  const watches = createWatches({ store: store.watches, portal, config: config.watch, access: config.access, logger, now, ...(watchMemory ? { memory: watchMemory } : {}) });
  // Issue 33: each chat's time zone and digest, a watch's options; group admins asked of Telegram.
  const nowMs = () => now().getTime();
  const chatDigest = createChatDigest({ store: store.watches, logger, now: nowMs });
  const isAdmin = createAdminCheck({ now: nowMs });

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
      createSettingsFeature({
        settings: store.settings,
        defaultLanguage: config.defaultLanguage,
        digestOf: (chatId) => (watches.mayWatch(chatId) ? chatDigest.get(chatId) : undefined),
      }),
      createLookupFeature({ lookups, watches, now }),
      createRecordFeature({ lookups, watches, now }),
      createWatchFeature({ lookups, watches, intervalMs: config.watch.intervalMs, now }),
      // A watch's options and snooze, the chat's time zone and digest (issue 33).
      createWatchOptionsFeature({ watches, options: createWatchOptions({ store: store.watches, logger, now: nowMs }), now }),
      createTimeZoneFeature({ settings: store.settings, digests: chatDigest, isAdmin, logger, now }),
      createDigestFeature({ digests: chatDigest, watches, isAdmin, now }),
      createExportFeature({ lookups, exports }),
      createInlineFeature({ lookups, access: config.access }),
      createFallbackFeature(),
    ),
  );

  // Reached only if the boundary itself failed: log, and let the other updates go on.
  bot.catch((error, ctx) => logger.error({ err: error, updateId: ctx.update.update_id }, 'unhandled error'));
  return bot;
};
