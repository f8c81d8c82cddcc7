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
  config: Pick<Config, 'telegramApiRoot' | 'access' | 'defaultLanguage' | 'pageSize' | 'timeZone' | 'floodLimitPerMinute' | 'watch' | 'telegramFeatures'>;
  portal: LookupPortal;
  metrics?: BotMetrics;
  store: Pick<Store, 'queries' | 'settings' | 'watches' | 'limits' | 'autolookup' | 'answerModes' | 'statuses' | 'access' | 'usage'>;
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
  const adminCheck = createAdminCheck({ now: nowMs });
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
      createAnswersFeature({ modes: answerModes, isAdmin: adminCheck, defaultLanguage: config.defaultLanguage, logger, lookups, answer, now }),
      createStartFeature({ demo, lookups }),
      createSettingsFeature({ settings: store.settings, defaultLanguage: config.defaultLanguage, autolookup: readsGroup, answers: (chatId) => answerModes.mode(chatId) }),
      // Admins: /allow, /deny, /users and the access requests' Allow / Deny; /stats.
      createAdminFeature({ access, store: store.access, seen: store.usage, ...(usage ? { usage } : {}), changes, requests, now }),
      createStatsFeature({ access, store: store.usage, ...(usage ? { usage } : {}), ...(circuit ? { circuit } : {}), now }),
      // Issue 30: /autolookup on|off, a group admin's.
      createAutolookupFeature({ autolookup, isAdmin: adminCheck, access }),
      createLookupFeature({ lookups, watches, statuses, answer, pasted, now }),
      createRecordFeature({ lookups, watches, now }),
      createWatchFeature({ lookups, watches, intervalMs: config.watch.intervalMs, now, statuses }),
      createExportFeature({ lookups, exports, now, statuses }),
      createInlineFeature({ lookups, access, now, statuses }),
      // Issue 30: numbers in plain text (private chats, mentions, replies, /autolookup), before the fallback.
      createPasteFeature({ pasted, autolookup, access, lookups, watches, now }),
      createFallbackFeature(),
    ),
  );

  // Reached only if the boundary itself failed: log, and let the other updates go on.
  bot.catch((error, ctx) => logger.error({ err: error, updateId: ctx.update.update_id }, 'unhandled error'));
  return bot;
};
