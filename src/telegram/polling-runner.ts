import type { Logger } from 'pino';
import { callSignal, telegrafUpdateTypes, type Telegram, type Update, type UpdateType, type UserFromGetMe } from './telegraf/core.ts';
import { createUpdateHandler } from './handle-update.ts';
import { createKeyedQueue } from './keyed-queue.ts';
import { backoffDelay, pause, type Backoff } from '../backoff.ts';
import { classifyPollError, DEFAULT_BACKOFF, type PollFailure } from './retry-policy.ts';
import { createStartUpRetry } from './start-up.ts';
import { createSkipLog, parseBatch, takeNewUpdates } from './update-schema.ts';

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
  /** Delays between failed polls and start-up calls; default 0.5 s doubling to 30 s. */
  backoff?: Backoff;
  /** How long one update may be handled before its Telegram calls are cancelled; default 60 s. */
  handlerDeadlineMs?: number;
  /** Ends the start-up retries (getMe, deleteWebhook) early: startPolling then rejects. */
  signal?: AbortSignal;
  /** Told of each 409 (another getUpdates consumer), before the runner waits to poll again. */
  onConflict?: () => void;
  /** How the runner waits between polls that brought nothing new (a test's records the waits); default `pause`. */
  pause?: (ms: number, signal: AbortSignal) => Promise<void>;
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
/** How long a stop waits for Telegram to take the confirmation of the last offset. */
const CONFIRM_TIMEOUT_MS = 1_500;
/** The least time between two log lines about skipped updates. */
const SKIP_LOG_INTERVAL_MS = 5_000;

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
  handlerDeadlineMs = 60_000,
  signal,
  onConflict,
  pause: wait = pause,
}: PollingOptions): Promise<Runner> => {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, not ${concurrency}`);
  const atStart = createStartUpRetry({ logger, backoff, ...(signal && { signal }) });
  bot.botInfo ??= await atStart('getMe', () => bot.telegram.getMe());
  await atStart('deleteWebhook', () => bot.telegram.deleteWebhook());

  const queue = createKeyedQueue({ concurrency, run: createUpdateHandler({ bot, logger, deadlineMs: handlerDeadlineMs }) });
  const aborter = new AbortController();
  /** The next update id to ask for: every update below it was fetched. */
  let offset = 0;
  /** The offset Telegram has taken: that of the last getUpdates it answered (a 409 included). */
  let confirmed = 0;
  let refused = false;

  const logFailure = (error: unknown, failure: Extract<PollFailure, { kind: 'retry' }>, attempt: number) => {
    const fields = { err: error, attempt, delayMs: Math.round(failure.delayMs) };
    if (failure.reason === 'conflict') logger.error(fields, 'getUpdates conflict: another instance polls with this token');
    else if (failure.reason === 'rate limited') logger.warn({ ...fields, retryAfter: failure.delayMs / 1000 }, 'telegram asked to slow down');
    else logger.warn(fields, 'getUpdates failed, retrying');
  };

  /** An update_id far above the offset, refused once: taken if Telegram sends it again. */
  let refusedJump: number | undefined;
  const skips = createSkipLog({ logger, intervalMs: SKIP_LOG_INTERVAL_MS });
  /** Queues one update; one that cannot be queued is lost, never the polling. */
  const push = (update: Update) => {
    try {
      queue.push(update);
    } catch (error) {
      logger.error({ err: error, updateId: update.update_id }, 'could not queue an update: skipped');
    }
  };

  const poll = async () => {
    let failures = 0;
    while (!aborter.signal.aborted) {
      await queue.until(() => queue.room() > 0, aborter.signal);
      if (aborter.signal.aborted) return;
      let batch: unknown[];
      const asked = offset;
      try {
        const result: unknown = await bot.telegram.callApi(
          'getUpdates',
          {
            offset: asked,
            limit: Math.min(MAX_LIMIT, queue.room()),
            timeout: pollTimeoutSeconds,
            allowed_updates: telegrafUpdateTypes(allowedUpdates as UpdateType[] | undefined),
          },
          { signal: callSignal(aborter.signal) },
        );
        confirmed = asked;
        batch = parseBatch(result);
      } catch (error) {
        if (aborter.signal.aborted) return;
        const failure = classifyPollError(error, failures, backoff);
        if (failure.kind === 'retry' && failure.reason === 'conflict') {
          // Telegram ends the older of two long polls with 409 after taking its offset.
          confirmed = asked;
          onConflict?.();
        }
        if (failure.kind === 'fatal') {
          refused = true;
          logger.fatal({ err: error }, 'getUpdates refused: polling stopped');
          throw error;
        }
        if (failure.backoff) failures++;
        logFailure(error, failure, failures);
        await wait(failure.delayMs, aborter.signal);
        continue;
      }
      const taken = takeNewUpdates(batch, offset, refusedJump);
      refusedJump = taken.jump;
      offset = taken.offset;
      for (const update of taken.updates) push(update);
      if (taken.updates.length > 0 || batch.length === 0) {
        failures = 0;
        skips.add(taken.skipped, taken.problems, { offset });
        continue;
      }
      // Nothing new (junk, repeats, implausible ids): the offset stays, so asking again at once would spin.
      const delayMs = backoffDelay(failures++, backoff);
      skips.add(taken.skipped, taken.problems, { offset, attempt: failures, delayMs: Math.round(delayMs) });
      await wait(delayMs, aborter.signal);
    }
  };

  const done = poll();
  // Observed here so that a refusal nobody awaits is not an unhandled rejection; `done` still rejects.
  done.catch(() => undefined);

  const confirm = async () => {
    // Nothing fetched since Telegram last took the offset: a call would only end another
    // replica's long poll with a 409 (a hand-over).
    if (offset === confirmed || refused) return;
    try {
      // Bounded, so that a stop fits in the grace period plus a moment (docker stop's 10 s).
      await bot.telegram.callApi('getUpdates', { offset, limit: 1, timeout: 0 }, { signal: callSignal(AbortSignal.timeout(CONFIRM_TIMEOUT_MS)) });
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
    skips.flush();
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
