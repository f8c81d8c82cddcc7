import type { Logger } from 'pino';
import type { Telegram } from 'telegraf';
import type { Convenience, Update, UserFromGetMe } from 'telegraf/types';
import { createKeyedQueue } from './keyed-queue.ts';
import { classifyPollError, DEFAULT_BACKOFF, pause } from './retry-policy.ts';
import type { Backoff, PollFailure } from './retry-policy.ts';

/** What the runner needs of a Telegraf bot, whatever its context type. */
export type PollableBot = {
  telegram: Telegram;
  botInfo?: UserFromGetMe;
  handleUpdate(update: Update): Promise<void>;
};

export type PollingOptions = {
  bot: PollableBot;
  logger: Logger;
  /** Most updates handled at once, across chats; default 50. */
  concurrency?: number;
  /** Update types to receive, e.g. ['message', 'callback_query', 'inline_query']; default Telegram's. */
  allowedUpdates?: readonly string[];
  /** Long-poll timeout; default 30 s. */
  pollTimeoutSeconds?: number;
  /** Delays between failed polls; default 0.5 s doubling to 30 s. */
  backoff?: Backoff;
};

export type Runner = {
  /** Stops fetching, waits up to graceMs (default 10 s) for fetched updates, confirms them to Telegram. */
  stop(graceMs?: number): Promise<void>;
  /** Updates fetched and not finished: running, or waiting behind their chat or for a free slot. */
  inFlight(): number;
  /** Settles when polling ends: resolves after stop(); rejects when Telegram refuses for good (bad token). */
  done: Promise<void>;
};

const MAX_LIMIT = 100;

/**
 * Long polling that handles updates concurrently: one at a time per chat, up to `concurrency` at
 * once, fetching no more while the handlers are saturated.
 *
 * At most once, as Telegraf's own polling: the offset of the next getUpdates confirms everything
 * fetched before it, including updates still being handled, so an update whose handler is cut off
 * by a crash is not delivered again.
 */
export const startPolling = async ({
  bot,
  logger,
  concurrency = 50,
  allowedUpdates,
  pollTimeoutSeconds = 30,
  backoff = DEFAULT_BACKOFF,
}: PollingOptions): Promise<Runner> => {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, not ${concurrency}`);
  bot.botInfo ??= await bot.telegram.getMe();
  await bot.telegram.deleteWebhook();

  const queue = createKeyedQueue({
    concurrency,
    run: async (update) => {
      try {
        await bot.handleUpdate(update);
      } catch (error) {
        // The bot's error boundary failed too: this update is lost, the others go on.
        logger.error({ err: error, updateId: update.update_id }, 'update handler failed');
      }
    },
  });
  const aborter = new AbortController();
  /** The next update id to ask for: every update below it was fetched. */
  let offset = 0;
  let refused = false;

  const logFailure = (error: unknown, failure: Extract<PollFailure, { kind: 'retry' }>, attempt: number) => {
    const fields = { err: error, attempt, delayMs: Math.round(failure.delayMs) };
    if (failure.reason === 'conflict') logger.error(fields, 'getUpdates conflict: another instance polls with this token');
    else if (failure.reason === 'rate limited') logger.warn({ ...fields, retryAfter: failure.delayMs / 1000 }, 'telegram asked to slow down');
    else logger.warn(fields, 'getUpdates failed, retrying');
  };

  const poll = async () => {
    let failures = 0;
    while (!aborter.signal.aborted) {
      await queue.until(() => queue.room() > 0, aborter.signal);
      if (aborter.signal.aborted) return;
      let updates: Update[];
      try {
        updates = await bot.telegram.callApi(
          'getUpdates',
          {
            offset,
            limit: Math.min(MAX_LIMIT, queue.room()),
            timeout: pollTimeoutSeconds,
            allowed_updates: allowedUpdates as Convenience.UpdateType[] | undefined,
          },
          // Typed with the abort-controller polyfill's signal; node-fetch takes the native one.
          { signal: aborter.signal as unknown as NonNullable<Parameters<Telegram['callApi']>[2]>['signal'] },
        );
      } catch (error) {
        if (aborter.signal.aborted) return;
        const failure = classifyPollError(error, failures, backoff);
        if (failure.kind === 'fatal') {
          refused = true;
          logger.fatal({ err: error }, 'getUpdates refused: polling stopped');
          throw error;
        }
        if (failure.backoff) failures++;
        logFailure(error, failure, failures);
        await pause(failure.delayMs, aborter.signal);
        continue;
      }
      failures = 0;
      for (const update of updates) {
        offset = Math.max(offset, update.update_id + 1);
        queue.push(update);
      }
    }
  };

  const done = poll();
  // Observed here so that a refusal nobody awaits is not an unhandled rejection; `done` still rejects.
  done.catch(() => undefined);

  const confirm = async () => {
    if (offset === 0 || refused) return;
    try {
      await bot.telegram.callApi('getUpdates', { offset, limit: 1, timeout: 0 });
    } catch (error) {
      logger.warn({ err: error, offset }, 'could not confirm the last updates: they may be delivered again');
    }
  };

  let stopping: Promise<void> | undefined;
  const stop = async (graceMs: number) => {
    aborter.abort();
    await done.catch(() => undefined);
    if (queue.pending() > 0) await queue.until(() => queue.pending() === 0, AbortSignal.timeout(graceMs));
    if (queue.pending() > 0) {
      const lost = queue.unstarted().map((update) => update.update_id);
      logger.warn({ graceMs, running: queue.running(), lost }, 'stopped before every handler finished');
    }
    await confirm();
    logger.debug({ offset }, 'polling stopped');
  };

  logger.debug({ concurrency, pollTimeoutSeconds }, 'polling started');
  return {
    stop: (graceMs = 10_000) => (stopping ??= stop(graceMs)),
    inFlight: () => queue.pending(),
    done,
  };
};
