import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import { telegrafUpdateTypes, type Telegram, type Update, type UpdateType } from './telegraf/core.ts';
import { shortHash } from '../short-hash.ts';
import { createUpdateHandler } from './handle-update.ts';
import { createKeyedQueue } from './keyed-queue.ts';
import { createRecentIds } from './recent-ids.ts';
import type { StartUpRetry } from './start-up.ts';

/** Telegram's rule for secret_token: 1–256 characters of A-Z, a-z, 0-9, _ and -. */
export const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * What the replicas share to agree on one webhook (the store's coordination, seen from here):
 * values written once and read by all, and a lock held while the webhook is checked and set.
 */
export type WebhookCoordination = {
  value(key: string): string | undefined | Promise<string | undefined>;
  setValue(key: string, value: string, now: number): void | Promise<void>;
  exclusively<T>(name: string, task: () => Promise<T>): Promise<T>;
};

/** Where the fingerprint of the webhook last set lives in the store. */
export const WEBHOOK_KEYS = { fingerprint: 'webhook.fingerprint' } as const;
const WEBHOOK_LOCK = 'webhook';

export type WebhookOptions = {
  telegram: Pick<Telegram, 'setWebhook' | 'getWebhookInfo'>;
  /** The public HTTPS address Telegram posts to; without a path, an unguessable one (the same for every replica) is added. */
  url: string;
  /** WEBHOOK_SECRET; when absent, one derived from the bot token (the same for every replica). */
  secretToken?: string;
  /** The bot token, which the generated secret and path are derived from. */
  botToken: string;
  /** Always sent, so a list left over from an earlier setWebhook never applies. */
  allowedUpdates: readonly UpdateType[];
  coordination: WebhookCoordination;
  /** How the Telegram calls are made, e.g. retried at start-up; once by default. */
  attempt?: StartUpRetry;
  /** Told the secret before it is first sent, so the logs can redact a generated one. */
  onSecret?: (secret: string) => void;
  now?: () => number;
};

export type Webhook = {
  /** The address given to Telegram, with the generated path if one was added. */
  url: string;
  secretToken: string;
  /** The pathname the local server must accept posts on. */
  path: string;
  /** False when Telegram already had this webhook and setWebhook was not called. */
  changed: boolean;
};


/** The stored value under `key`, or a new one stored there (the caller holds the webhook lock). */
/**
 * A secret (or path) every replica derives alike from the bot token, so none is stored: anyone
 * who can read the database or its backups still cannot forge updates. Changes with the token.
 */
const derived = (botToken: string, purpose: string, bytes: number): string =>
  createHmac('sha256', botToken).update(`webhook ${purpose}`).digest().subarray(0, bytes).toString('base64url');

const sameTypes = (current: readonly string[] | undefined, wanted: readonly string[]): boolean => {
  const have = new Set(current ?? []);
  return have.size === new Set(wanted).size && wanted.every((type) => have.has(type));
};

/**
 * Points Telegram at the webhook, once for all the replicas: under a shared lock (with the secret
 * and path, when not configured, derived from the bot token alike by all), setWebhook is called
 * only when getWebhookInfo shows another URL or other update types, or the secret differs from the
 * one last set. Telegram does not tell the secret back, so a fingerprint of what was set is kept in
 * the store. N replicas starting together make one call (Telegram answers a burst with 429).
 * Pending updates are kept, so none is lost across a restart.
 */
export const setupWebhook = async ({
  telegram,
  url,
  secretToken,
  botToken,
  allowedUpdates,
  coordination,
  attempt = (_method, call) => call(),
  onSecret,
  now = Date.now,
}: WebhookOptions): Promise<Webhook> => {
  if (secretToken !== undefined && !SECRET_TOKEN.test(secretToken)) throw new Error('webhook: the secret token must be 1-256 characters of A-Z, a-z, 0-9, _ and -');
  if (!URL.canParse(url)) throw new Error('webhook: the URL is not a valid absolute URL');
  const target = new URL(url);
  if (target.protocol !== 'https:') throw new Error('webhook: Telegram only posts to an https:// URL');
  return coordination.exclusively(WEBHOOK_LOCK, async () => {
    const secret = secretToken ?? derived(botToken, 'secret', 32);
    onSecret?.(secret);
    // An unguessable path keeps scanners off the handler even before the secret is checked.
    if (target.pathname === '/') target.pathname = `/telegram/${derived(botToken, 'path', 18)}`;
    const fingerprint = shortHash(JSON.stringify([target.href, secret, [...allowedUpdates].sort()]), 22);
    const info = await attempt('getWebhookInfo', () => telegram.getWebhookInfo());
    const current = info.url === target.href && sameTypes(info.allowed_updates, allowedUpdates) && (await coordination.value(WEBHOOK_KEYS.fingerprint)) === fingerprint;
    if (!current) {
      await attempt('setWebhook', () =>
        telegram.setWebhook(target.href, { secret_token: secret, allowed_updates: telegrafUpdateTypes(allowedUpdates), drop_pending_updates: false }),
      );
      await coordination.setValue(WEBHOOK_KEYS.fingerprint, fingerprint, now());
    }
    return { url: target.href, secretToken: secret, path: target.pathname, changed: !current };
  });
};

/** Telegram may post an update again (it missed our answer): ids this recent are handled once. */
const REMEMBERED_UPDATE_IDS = 10_000;

/**
 * Updates posted to the webhook: each handled once, in order within a chat, concurrently across
 * chats. `receive` settles when its update has been handled, so that the post is answered only
 * then: Telegram keeps one update per chat in flight to a webhook, so that chat's next update
 * comes after, to whichever replica.
 */
export const createWebhookReceiver = ({
  bot,
  logger,
  concurrency,
  deadlineMs,
}: {
  bot: { handleUpdate(update: Update): Promise<void> };
  logger: Logger;
  concurrency: number;
  deadlineMs: number;
}) => {
  const handle = createUpdateHandler({ bot, logger, deadlineMs });
  /** Updates taken and not yet handled, by id: a post of one again waits for the same end. */
  const handling = new Map<number, PromiseWithResolvers<void>>();
  const queue = createKeyedQueue({
    concurrency,
    run: (update) =>
      handle(update).finally(() => {
        handling.get(update.update_id)?.resolve();
        handling.delete(update.update_id);
      }),
  });
  const seen = createRecentIds(REMEMBERED_UPDATE_IDS);
  return {
    receive(update: Update): Promise<void> {
      const running = handling.get(update.update_id);
      if (running !== undefined) return running.promise;
      if (!seen.add(update.update_id)) {
        logger.warn({ updateId: update.update_id }, 'skipped an update already handled');
        return Promise.resolve();
      }
      const done = Promise.withResolvers<void>();
      handling.set(update.update_id, done);
      queue.push(update);
      return done.promise;
    },
    pending: queue.pending,
    /** Resolves once every update taken was handled, or early when `signal` aborts. */
    drained: (signal: AbortSignal) => queue.until(() => queue.pending() === 0, signal),
  };
};
