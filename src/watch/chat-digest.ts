import type { Logger } from 'pino';
import type { Locale } from '../i18n.ts';
import type { Digest, WatchStore } from '../store/watch-store.ts';
import { isoDay, zoneOf } from '../zone.ts';
import { nextDigestAt } from './digests.ts';

// What /digest and /timezone do to a chat's digest: set it at a time of day in the chat's time
// zone, stop it, and move it when the zone changes. One digest a day: a new time on a day whose
// digest went already is first due the next day. Each change leaves an audit line.

export type DigestRequest = { chatId: number; threadId?: number; userId: number; locale: Locale; minute: number; quiet: boolean };

/** When a digest at `minute` is due next in `timeZone`: not again on the day of the last one. */
export const dueAt = (timeZone: string, minute: number, now: number, lastSentAt: number | undefined): number => {
  const next = nextDigestAt(timeZone, minute, now);
  if (lastSentAt === undefined) return next;
  const zone = zoneOf(timeZone);
  return isoDay(zone.wallClock(lastSentAt)) === isoDay(zone.wallClock(next)) ? nextDigestAt(timeZone, minute, next) : next;
};

export const createChatDigest = ({ store, logger, now }: { store: WatchStore; logger: Pick<Logger, 'info'>; now: () => number }) => ({
  get: (chatId: number): Promise<Digest | undefined> => Promise.resolve(store.digest(chatId)),

  async set(request: DigestRequest, timeZone: string): Promise<Digest> {
    const at = now();
    const current = await store.digest(request.chatId);
    const digest = await store.setDigest({
      chatId: request.chatId,
      ...(request.threadId !== undefined && { threadId: request.threadId }),
      minute: request.minute,
      quiet: request.quiet,
      locale: request.locale,
      createdBy: request.userId,
      now: at,
      nextAt: dueAt(timeZone, request.minute, at, current?.lastSentAt),
    });
    logger.info({ audit: true, chatId: request.chatId, userId: request.userId, minute: request.minute, quiet: request.quiet, timeZone, nextAt: digest.nextAt }, 'digest set');
    return digest;
  },

  /** How many watches were digest-only (told at once again now); undefined when there was no digest. */
  async stop(chatId: number, userId: number): Promise<number | undefined> {
    const undone = await store.removeDigest(chatId);
    if (undone !== undefined) logger.info({ audit: true, chatId, userId, digestOnlyWatches: undone }, 'digest stopped');
    return undone;
  },

  /** The chat's time zone changed: its digest is due at its time in the new zone. */
  async zoneChanged(chatId: number, timeZone: string): Promise<Digest | undefined> {
    const digest = await store.digest(chatId);
    if (digest === undefined) return undefined;
    const nextAt = dueAt(timeZone, digest.minute, now(), digest.lastSentAt);
    await store.rescheduleDigest(chatId, nextAt);
    return { ...digest, nextAt };
  },
});

export type ChatDigest = ReturnType<typeof createChatDigest>;
