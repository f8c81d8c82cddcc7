import type { Logger } from 'pino';
import type { Telegraf } from 'telegraf';
import type { Config } from '../config.ts';
import type { BotContext } from '../bot/context.ts';
import { ALLOWED_UPDATES } from '../bot/update-types.ts';
import { createKeyedQueue } from '../runner/keyed-queue.ts';
import { startPolling } from '../runner/polling-runner.ts';
import type { MetricsRegistry } from '../server/metrics.ts';
import { startHttpServer, type Readiness } from '../server/http-server.ts';
import { setupWebhook } from '../server/webhook.ts';

export type Receiving = {
  /** Stops taking updates and waits for those in flight, up to `graceMs`. */
  stop(graceMs: number): Promise<void>;
  /** Updates taken and not yet handled. */
  inFlight(): number;
  /** Settles when receiving ends by itself: rejects when Telegram refuses for good (a revoked token). */
  done: Promise<void>;
};

type Options = {
  bot: Telegraf<BotContext>;
  config: Pick<Config, 'webhook' | 'port' | 'concurrency'>;
  logger: Logger;
  metrics: MetricsRegistry;
  readiness: () => Readiness;
};

/**
 * Updates from Telegram by long polling, or by webhook when WEBHOOK_URL is set; either way in
 * order within a chat and concurrently across chats. With PORT, an HTTP server also answers
 * /healthz, /readyz and /metrics.
 */
export const startReceiving = async ({ bot, config, logger, metrics, readiness }: Options): Promise<Receiving> => {
  if (!config.webhook) {
    const runner = await startPolling({ bot, logger, concurrency: config.concurrency, allowedUpdates: ALLOWED_UPDATES });
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

  bot.botInfo ??= await bot.telegram.getMe();
  const queue = createKeyedQueue({
    concurrency: config.concurrency,
    run: (update) => bot.handleUpdate(update).catch((error: unknown) => logger.error({ err: error, updateId: update.update_id }, 'update handler failed')),
  });
  const hook = await setupWebhook({ telegram: bot.telegram, url: config.webhook.url, secretToken: config.webhook.secret, allowedUpdates: [...ALLOWED_UPDATES] });
  // The port is required with a webhook (config checks it).
  const http = await startHttpServer({
    port: config.port ?? 0,
    logger,
    metrics,
    readiness,
    webhook: { path: hook.path, secretToken: hook.secretToken, handleUpdate: async (update) => queue.push(update) },
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
