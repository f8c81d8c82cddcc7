import type { Logger } from 'pino';
import type { Awaitable } from '../store/store.ts';
import type { Locale } from '../i18n.ts';
import type { Digest, WatchStore } from '../store/watch-store.ts';
import { isoDay, nextTimeOfDay, zoneOf } from '../zone.ts';
import { digestContent, type DigestContent } from './digest-content.ts';

// The chats' daily digests: each due digest is claimed with a lease (one replica prepares it),
// prepared from what the store keeps, and queued with the notifications in one transaction
// (prepareDigest), so it is prepared once a day however the processes come and go. The sender
// sends its messages. One missed by MISSED_LIMIT_MS or more (the bot was down) is skipped: its
// changes stay for the next, which says so.

/** A digest this late is skipped; an earlier one is sent late. */
export const MISSED_LIMIT_MS = 6 * 3_600_000;
/** A digest whose preparing failed is tried again this much later. */
const RETRY_MS = 60_000;
/** Digests prepared in one round, at most. */
const DIGEST_BATCH = 20;

export type DigestRender = (content: DigestContent, locale: Locale, timeZone: string, now: number) => string[];

export type DigesterOptions = {
  store: WatchStore;
  owner: string;
  /** How long a claim holds: longer than preparing one takes. */
  leaseMs: number;
  now: () => number;
  /** The chat's time zone now. */
  zoneOf: (chatId: number) => Awaitable<string>;
  /** The language the chat's digest speaks now. */
  localeOf: (digest: Digest) => Awaitable<Locale>;
  /** The digest's messages (JSON, src/watch/prepared-message.ts); none for a quiet day. */
  render: DigestRender;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** A digest was queued: its messages are due now. */
  onPrepared?: (messages: number) => void;
  /** Each digest claimed: prepared, skipped (too late) or failed (tried again later). */
  onOutcome?: (outcome: 'prepared' | 'skipped' | 'failed') => void;
};

/** When a digest at `minute` is due next after `now`, in the zone. */
export const nextDigestAt = (timeZone: string, minute: number, now: number): number => nextTimeOfDay(zoneOf(timeZone), minute, now);

export const createDigester = ({ store, owner, leaseMs, now, zoneOf: chatZone, localeOf, render, logger, onPrepared, onOutcome }: DigesterOptions) => {
  const prepare = async (digest: Digest, at: number): Promise<void> => {
    const timeZone = await chatZone(digest.chatId);
    const nextAt = nextDigestAt(timeZone, digest.minute, at);
    if (at - digest.nextAt >= MISSED_LIMIT_MS) {
      if (await store.skipDigest(digest.chatId, owner, nextAt)) {
        logger.warn({ chatId: digest.chatId, dueAt: digest.nextAt, nextAt }, 'a digest was skipped: it was due more than 6 hours ago; the next one tells its changes');
        onOutcome?.('skipped');
      }
      return;
    }
    const locale = await localeOf(digest);
    const today = isoDay(zoneOf(timeZone).wallClock(at));
    const messages = await store.prepareDigest(digest.chatId, owner, { now: at, nextAt }, (input) => render(digestContent(input, today), locale, timeZone, at));
    if (messages === undefined) {
      logger.warn({ chatId: digest.chatId }, 'a digest lost its lease while being prepared: another process prepares it');
      return;
    }
    logger.info({ audit: true, chatId: digest.chatId, messages, late: Math.max(0, at - digest.nextAt) }, 'digest prepared');
    onOutcome?.('prepared');
    if (messages > 0) onPrepared?.(messages);
  };

  return {
    /** Prepares the digests due now; resolves with how many were claimed. */
    async tick(): Promise<number> {
      const at = now();
      const claimed = await store.claimDigests(owner, at, leaseMs, DIGEST_BATCH);
      for (const digest of claimed) {
        try {
          await prepare(digest, at);
        } catch (error) {
          logger.error({ err: error, chatId: digest.chatId }, 'a digest could not be prepared: it is tried again in a minute');
          onOutcome?.('failed');
          await store.releaseDigest(digest.chatId, owner, at + RETRY_MS);
        }
      }
      return claimed.length;
    },
  };
};

export type Digester = ReturnType<typeof createDigester>;
