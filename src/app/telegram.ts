import type { Logger } from 'pino';
import type { Update } from '../telegram/telegraf/core.ts';
import type { Config } from '../config.ts';
import { ALLOWED_UPDATES } from '../bot/update-types.ts';
import { startPolling, type PollableBot } from '../telegram/polling-runner.ts';
import type { Backoff } from '../backoff.ts';
import { DEFAULT_BACKOFF } from '../telegram/retry-policy.ts';
import { createStartUpRetry } from '../telegram/start-up.ts';
import type { Gauge, MetricsRegistry } from '../metrics/registry.ts';
import type { CoordinationStore } from '../store/store.ts';
import { createChatOrder } from './chat-order.ts';
import { startHttpServer, type Readiness } from './http-server.ts';
import { createOwnerId, startPollingLeadership } from './leader.ts';
import { createWebhookReceiver, setupWebhook } from '../telegram/webhook.ts';

export type Receiving = {
  /** Stops taking updates and waits for those in flight, up to `graceMs`. */
  stop(graceMs: number): Promise<void>;
  /** Updates taken and not yet handled. */
  inFlight(): number;
  /** Settles when receiving ends by itself: rejects when Telegram refuses for good (a revoked token). */
  done: Promise<void>;
};

type Options = {
  bot: PollableBot;
  config: Pick<Config, 'webhook' | 'port' | 'concurrency' | 'handlerDeadlineMs'>;
  /** Shared by the replicas: the polling lease, the webhook's secret and path, the lock around setWebhook. */
  coordination: CoordinationStore;
  /** How long the polling lease lasts unrenewed (LEADER_LEASE_SECONDS): a standby takes over after it. */
  leaderLeaseMs: number;
  /**
   * Webhook: several replicas share the store (PostgreSQL), so each update of a chat first takes
   * the chat's turn there (src/app/chat-order.ts). One process keeps its order in memory alone.
   */
  orderAcrossReplicas?: boolean;
  logger: Logger;
  metrics: MetricsRegistry;
  readiness: () => Readiness;
  /** Told the webhook secret before it is first sent, so the logs can redact a generated one. */
  onSecret?: (secret: string) => void;
  /** Delays between failed start-up calls (and polls); default 0.5 s doubling to 30 s. */
  backoff?: Backoff;
  /** Called just before the HTTP server listens: the one that answered while the bot started gives the port up. */
  beforeListen?: () => Promise<void>;
};

/**
 * telegram-bot-api drops a webhook connection idle for 60 s and posts the update again: a post is
 * answered before that, even when its update is still being handled.
 */
const WEBHOOK_ANSWER_LIMIT_MS = 55_000;

/** One polling_leader gauge per registry: receiving may start again in one process (a restart in tests). */
const leaderGauges = new WeakMap<MetricsRegistry, Gauge>();
const leaderGauge = (metrics: MetricsRegistry): Gauge => {
  let gauge = leaderGauges.get(metrics);
  if (gauge === undefined) {
    gauge = metrics.gauge({ name: 'orderbot_polling_leader', help: '1 while this replica polls Telegram, 0 while it stands by.' });
    leaderGauges.set(metrics, gauge);
  }
  return gauge;
};

/**
 * Updates from Telegram by long polling, or by webhook when WEBHOOK_URL is set; either way in
 * order within a chat, concurrently across chats, each within its deadline. Start-up calls are
 * retried until Telegram answers or refuses the token. With several replicas on one store, one
 * polls and the others stand by; with a webhook, any replica takes any update. With PORT, an HTTP
 * server also answers /healthz, /readyz and /metrics.
 */
export const startReceiving = async ({
  bot,
  config,
  coordination,
  leaderLeaseMs,
  orderAcrossReplicas = false,
  logger,
  metrics,
  readiness,
  onSecret,
  backoff = DEFAULT_BACKOFF,
  beforeListen = async () => {},
}: Options): Promise<Receiving> => {
  const atStart = createStartUpRetry({ logger, backoff });
  // Every replica checks the token at start, standbys included.
  bot.botInfo ??= await atStart('getMe', () => bot.telegram.getMe());

  if (!config.webhook) {
    const leadership = await startPollingLeadership({
      coordination,
      owner: createOwnerId(),
      leaseMs: leaderLeaseMs,
      logger,
      gauge: leaderGauge(metrics),
      startRunner: (signal, onConflict) =>
        startPolling({
          signal,
          onConflict,
          bot,
          logger,
          backoff,
          concurrency: config.concurrency,
          handlerDeadlineMs: config.handlerDeadlineMs,
          allowedUpdates: ALLOWED_UPDATES,
        }),
    });
    if (config.port !== undefined) await beforeListen();
    const http = config.port === undefined ? undefined : await startHttpServer({ port: config.port, logger, metrics, readiness });
    logger.info({ mode: 'polling', port: http?.port, leading: leadership.leading() }, 'receiving updates');
    return {
      done: leadership.done,
      inFlight: leadership.inFlight,
      async stop(graceMs) {
        await leadership.stop(graceMs);
        await http?.close(0);
      },
    };
  }

  const receiver = createWebhookReceiver({ bot, logger, concurrency: config.concurrency, deadlineMs: config.handlerDeadlineMs });
  const inChatOrder = orderAcrossReplicas
    ? createChatOrder({ coordination, owner: createOwnerId(), logger, waitMs: config.handlerDeadlineMs })
    : <T>(_update: Update, handle: () => Promise<T>) => handle();
  const hook = await setupWebhook({
    telegram: bot.telegram,
    url: config.webhook.url,
    secretToken: config.webhook.secret,
    botToken: bot.telegram.token,
    allowedUpdates: [...ALLOWED_UPDATES],
    coordination,
    attempt: atStart,
    onSecret,
  });
  // The port is required with a webhook (config checks it).
  await beforeListen();
  const http = await startHttpServer({
    port: config.port ?? 0,
    logger,
    metrics,
    readiness,
    webhook: {
      path: hook.path,
      secretToken: hook.secretToken,
      handleUpdate: (update) => inChatOrder(update, () => receiver.receive(update)),
      answerWithinMs: Math.min(config.handlerDeadlineMs, WEBHOOK_ANSWER_LIMIT_MS),
    },
  });
  logger.info({ mode: 'webhook', port: http.port, path: hook.path, setWebhook: hook.changed }, 'receiving updates');
  const ended = Promise.withResolvers<void>();
  return {
    done: ended.promise,
    inFlight: receiver.pending,
    async stop(graceMs) {
      // New posts get 503 (Telegram retries them later, to another replica); queued ones finish.
      const deadline = AbortSignal.timeout(Math.max(1, graceMs));
      await http.close(graceMs);
      await receiver.drained(deadline);
      ended.resolve();
    },
  };
};
