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
import { createGuestFeature, type LiveGuestCard } from './features/guest.ts';
import { createLookupFeature } from './features/lookup.ts';
import { createRecordFeature } from './features/record.ts';
import { createSettingsFeature } from './features/settings.ts';
import { createStartFeature } from './features/start.ts';
import { createWatchFeature } from './features/watch.ts';
import { createPasteFeature } from './features/paste.ts';
import { createAutolookupFeature } from './features/autolookup.ts';
import { createResultsAnswer } from './answer-results.ts';
import { createAutolookupSwitch } from './autolookup-switch.ts';
import { createAnswerModes } from './answer-modes.ts';
import { createAnswersFeature } from './features/answers.ts';
import { createAdminCheck } from './chat-admins.ts';
import { createPasted } from './pasted.ts';
import { createStatuses } from './statuses.ts';
import type { StatusNames } from '../status-names.ts';
import { createWatchOptionsFeature } from './features/watch-options.ts';
import { createTimeZoneFeature } from './features/time-zone.ts';
import { createDigestFeature } from './features/digest.ts';
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
import { createAccess } from '../access.ts';
import type { Usage } from '../store/usage.ts';
import { createAccessRequests } from './access-requests.ts';
import { createAccessChanges } from './access-changes.ts';
import { createAdminFeature } from './features/admin.ts';
import { createStatsFeature } from './features/stats.ts';
import { createOnboardingFeature } from './features/onboarding.ts';
import { createServerFeatures, type ServerFeatures } from '../telegram/capabilities.ts';

export type BotDeps = {
  token: string;
  config: Pick<Config, 'telegramApiRoot' | 'access' | 'defaultLanguage' | 'pageSize' | 'timeZone' | 'floodLimitPerMinute' | 'watch' | 'telegramFeatures'> & Partial<Pick<Config, 'guestCardLiveMs'>>;
  portal: LookupPortal;
  metrics?: BotMetrics;
  store: Pick<Store, 'queries' | 'settings' | 'watches' | 'limits' | 'autolookup' | 'answerModes' | 'statuses' | 'access' | 'usage'> & Partial<Pick<Store, 'guestCards'>>;
  logger: Logger;
  /** The embedded demo portal answers: /start says the data is not real. */
  demo: boolean;
  now?: () => Date;
  /** The process's exports, made by the composition root, which waits for them when it stops. */
  exports: Exports;
  /** What watch readings may take of the heap, shared by /watch and the poller; made here when not given. */
  watchMemory?: MemoryBudget;
  /** The operator's names of status codes (STATUS_NAMES_FILE), read at start. */
  statusNames?: StatusNames;
  /** This process's usage counters (/stats), flushed to the store; none: nothing counted. */
  usage?: Usage;
  /** The portal's circuit breaker now, for /stats. */
  circuit?: () => string;
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
export const createBot = ({ token, config, portal, store, logger, demo, metrics, now = () => new Date(), exports, watchMemory, statusNames, usage, circuit, features }: BotDeps): Telegraf<BotContext> => {
  // Telegraf builds each update's context and runs our one chain; why nothing else: createTelegraf.
  const bot = createTelegraf<BotContext>(token, { apiRoot: config.telegramApiRoot, logger, ...(metrics ? { onRateLimited: (method: string) => metrics.telegramRateLimited.inc({ method }) } : {}) });
  // The server's features, read from getMe once it is known (at start), on every update's context.
  const serverFeatures = features ?? createServerFeatures({ mode: config.telegramFeatures, logger });
  serverFeatures.readGetMe(() => bot.botInfo);
  bot.context.features = serverFeatures;
  const nowMs = () => now().getTime();
  // The environment's lists merged with what admins allowed in the chat (held in memory by the store).
  const access = createAccess(config.access, store.access);
  const statuses = createStatuses({ store: store.statuses, ...(statusNames ? { names: statusNames } : {}), logger, now: nowMs });
  const lookups = createLookups({ portal, queries: store.queries, logger, now: nowMs, seen: statuses.seen, ...(usage ? { counted: (via: string, query: { resource: string; filter: string }) => usage.lookup(via, query.resource, query.filter) } : {}) });
  const watches = createWatches({ store: store.watches, portal, config: config.watch, access, logger, now, ...(watchMemory ? { memory: watchMemory } : {}), ...(usage ? { onAdded: () => usage.watchAdded() } : {}) });
  const requests = createAccessRequests({ store: store.access, access, settings: store.settings, logger, defaultLanguage: config.defaultLanguage, timeZone: config.timeZone, now: nowMs });
  const changes = createAccessChanges({ access, store: store.access, watches: store.watches, logger, now: nowMs });
  // Issue 30: how a lookup is answered (one record opens at once), pasted numbers, /autolookup.
  const answer = createResultsAnswer({ watches, statuses, now });
  const pasted = createPasted({ lookups, answer });
  const autolookup = createAutolookupSwitch({ store: store.autolookup, logger, now: nowMs });
  const readsGroup = async (chatId: number) => (access.mayWatchIn(chatId) ? autolookup.enabled(chatId) : undefined);
  // Issue 33: each chat's time zone and digest, a watch's options; group admins asked of Telegram.
  const chatDigest = createChatDigest({ store: store.watches, logger, now: nowMs });
  const isAdmin = createAdminCheck({ now: nowMs });

  // Issue 32: a guest card of one record is kept live for GUEST_CARD_LIVE_DAYS (src/app/guest-cards.ts edits it).
  const guestCards = store.guestCards;
  const liveMs = config.guestCardLiveMs ?? 0;
  const liveGuestCard =
    guestCards && liveMs > 0
      ? async (card: LiveGuestCard) => {
          await guestCards.add({ ...card, expiresAt: nowMs() + liveMs }, nowMs());
        }
      : undefined;
  // Issue 32: a group's answer mode (/answers).
  const answerModes = createAnswerModes({ store: store.answerModes, now: nowMs });

  // One chain (src/bot/feature.ts), in the order the layers apply; the fallback last.
  bot.use(
    chain(
      ...(metrics ? [updateMetrics(metrics)] : []),
      errorBoundary(logger, config.defaultLanguage),
      contextMiddleware({ ...config, settings: store.settings, ...(statusNames ? { statusNames } : {}) }),
      // Strangers first: they hear one refusal now and then, never "slow down" on top of it.
      accessMiddleware(access, { limits: store.limits, logger, now: nowMs, requests, ...(usage ? { seen: usage.seen } : {}) }),
      // Only a chat that may use the bot brings its paused watches back.
      resumeWatches(store.watches, logger),
      floodLimit({ perMinute: config.floodLimitPerMinute, limits: store.limits, logger }),
      // The bot added to or removed from a group: it introduces itself, the group's watches pause or resume.
      createOnboardingFeature({ access, watches: store.watches, logger, now }),
      // Issue 32: /answers, and where each answer goes (an ephemeral message, the private chat), before the lookups.
      createAnswersFeature({ modes: answerModes, isAdmin, defaultLanguage: config.defaultLanguage, logger, lookups, answer, now }),
      createStartFeature({ demo, lookups, answer }),
      createSettingsFeature({
        settings: store.settings,
        defaultLanguage: config.defaultLanguage,
        autolookup: readsGroup,
        answers: (chatId) => answerModes.mode(chatId),
        digestOf: (chatId) => (watches.mayWatch(chatId) ? chatDigest.get(chatId) : undefined),
      }),
      // Admins: /allow, /deny, /users and the access requests' Allow / Deny; /stats.
      createAdminFeature({ access, store: store.access, seen: store.usage, ...(usage ? { usage } : {}), changes, requests, now }),
      createStatsFeature({ access, store: store.usage, ...(usage ? { usage } : {}), ...(circuit ? { circuit } : {}), now }),
      // Issue 30: /autolookup on|off, a group admin's.
      createAutolookupFeature({ autolookup, isAdmin, access }),
      createLookupFeature({ lookups, watches, statuses, answer, pasted, now }),
      createRecordFeature({ lookups, watches, now }),
      createWatchFeature({ lookups, watches, intervalMs: config.watch.intervalMs, now, statuses }),
      // A watch's options and snooze, the chat's time zone and digest (issue 33).
      createWatchOptionsFeature({ watches, options: createWatchOptions({ store: store.watches, logger, now: nowMs }), now }),
      createTimeZoneFeature({ settings: store.settings, digests: chatDigest, isAdmin, logger, now }),
      createDigestFeature({ digests: chatDigest, watches, isAdmin, now }),
      createExportFeature({ lookups, exports, now, statuses }),
      createInlineFeature({ lookups, access, now, statuses }),
      // Issue 32: guest mode, `@bot 0007300100` in a chat the bot is not in (answerGuestQuery).
      createGuestFeature({ lookups, access, statuses, logger, now, ...(liveGuestCard ? { live: liveGuestCard } : {}) }),
      // Issue 30: numbers in plain text (private chats, mentions, replies, /autolookup), before the fallback.
      createPasteFeature({ pasted, autolookup, access, lookups, watches, now }),
      createFallbackFeature(),
    ),
  );

  // Reached only if the boundary itself failed: log, and let the other updates go on.
  bot.catch((error, ctx) => logger.error({ err: error, updateId: ctx.update.update_id }, 'unhandled error'));
  return bot;
};
