import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ALLOWED_UPDATES } from '../bot/update-types.ts';
import { createUpdateHandler } from '../telegram/handle-update.ts';
import { createKeyedQueue } from '../telegram/keyed-queue.ts';
import { startPolling, type PollableBot } from '../telegram/polling-runner.ts';
import { createRecentIds } from '../telegram/recent-ids.ts';
import type { Backoff } from '../backoff.ts';
import { DEFAULT_BACKOFF } from '../telegram/retry-policy.ts';
import { createStartUpRetry } from '../telegram/start-up.ts';
import type { MetricsRegistry } from '../metrics/registry.ts';
import { startHttpServer, type Readiness } from './http-server.ts';
import { generateSecretToken, setupWebhook } from '../telegram/webhook.ts';

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
  logger: Logger;
  metrics: MetricsRegistry;
  readiness: () => Readiness;
  /** Told the webhook secret before it is first sent, so the logs can redact a generated one. */
  onSecret?: (secret: string) => void;
  /** Delays between failed start-up calls (and polls); default 0.5 s doubling to 30 s. */
  backoff?: Backoff;
};

/** Telegram may post an update again (it missed our answer): ids this recent are handled once. */
const REMEMBERED_UPDATE_IDS = 10_000;

/**
 * Updates from Telegram by long polling, or by webhook when WEBHOOK_URL is set; either way in
 * order within a chat, concurrently across chats, each within its deadline. Start-up calls are
 * retried until Telegram answers or refuses the token. With PORT, an HTTP server also answers
 * /healthz, /readyz and /metrics.
 */
export const startReceiving = async ({ bot, config, logger, metrics, readiness, onSecret, backoff = DEFAULT_BACKOFF }: Options): Promise<Receiving> => {
  if (!config.webhook) {
    const runner = await startPolling({
      bot,
      logger,
      backoff,
      concurrency: config.concurrency,
      handlerDeadlineMs: config.handlerDeadlineMs,
      allowedUpdates: ALLOWED_UPDATES,
    });
    const http = config.port === undefined ? undefined : await startHttpServer({ port: config.port, logger, metrics, readiness });
    logger.info({ mode: 'polling', port: http?.port }, 'receiving updates');
    return {
      done: runner.done,
      inFlight: runner.inFlight,
      async stop(graceMs) {
        await runner.stop(graceMs);
        await http?.close(0);
      },
    };
  }

  const atStart = createStartUpRetry({ logger, backoff });
  bot.botInfo ??= await atStart('getMe', () => bot.telegram.getMe());
  const queue = createKeyedQueue({ concurrency: config.concurrency, run: createUpdateHandler({ bot, logger, deadlineMs: config.handlerDeadlineMs }) });
  const seen = createRecentIds(REMEMBERED_UPDATE_IDS);
  const secretToken = config.webhook.secret ?? generateSecretToken();
  onSecret?.(secretToken);
  const hook = await setupWebhook({ telegram: bot.telegram, url: config.webhook.url, secretToken, allowedUpdates: [...ALLOWED_UPDATES], attempt: atStart });
  // The port is required with a webhook (config checks it).
  const http = await startHttpServer({
    port: config.port ?? 0,
    logger,
    metrics,
    readiness,
    webhook: {
      path: hook.path,
      secretToken: hook.secretToken,
      handleUpdate: async (update) => {
        if (seen.add(update.update_id)) queue.push(update);
        else logger.warn({ updateId: update.update_id }, 'skipped an update already handled');
      },
    },
  });
  logger.info({ mode: 'webhook', port: http.port, path: hook.path }, 'receiving updates');
  let ended = () => {};
  return {
    done: new Promise<void>((resolve) => (ended = resolve)),
    inFlight: queue.pending,
    async stop(graceMs) {
      // New posts get 503 (Telegram retries them later, to the next instance); queued ones finish.
      const deadline = AbortSignal.timeout(Math.max(1, graceMs));
      await http.close(graceMs);
      await queue.until(() => queue.pending() === 0, deadline);
      ended();
    },
  };
};
