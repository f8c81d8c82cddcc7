import type { Logger } from 'pino';
import type { Watch, WatchStore } from '../store/watch-store.ts';

// What the option buttons do to one of a chat's watches: what it is told (all changes or status
// only), how (at once or in the digest only), and a snooze. Each change leaves an audit line.

const DAY_MS = 86_400_000;
export const SNOOZE_MS = { day: DAY_MS, week: 7 * DAY_MS } as const;

export type OptionResult = { kind: 'done'; watch: Watch } | { kind: 'gone' } | { kind: 'noDigest' };

export const createWatchOptions = ({ store, logger, now }: { store: WatchStore; logger: Pick<Logger, 'info'>; now: () => number }) => {
  const done = (watch: Watch | undefined, chatId: number, userId: number | undefined, message: string, more: object = {}): OptionResult => {
    if (watch === undefined) return { kind: 'gone' };
    logger.info({ audit: true, chatId, userId, watchId: watch.id, ...more }, message);
    return { kind: 'done', watch };
  };
  return {
    async setStatusOnly(chatId: number, userId: number | undefined, watchId: number, statusOnly: boolean): Promise<OptionResult> {
      return done(await store.setOptions(chatId, watchId, { statusOnly }), chatId, userId, 'watch options changed', { statusOnly });
    },
    /** Digest-only needs the chat's digest: without one its changes would never be told. */
    async setDigestOnly(chatId: number, userId: number | undefined, watchId: number, digestOnly: boolean): Promise<OptionResult> {
      if (digestOnly && (await store.digest(chatId)) === undefined) {
        return (await store.list(chatId)).some((watch) => watch.id === watchId) ? { kind: 'noDigest' } : { kind: 'gone' };
      }
      return done(await store.setOptions(chatId, watchId, { digestOnly }), chatId, userId, 'watch options changed', { digestOnly });
    },
    async snooze(chatId: number, userId: number | undefined, watchId: number, span: keyof typeof SNOOZE_MS): Promise<OptionResult> {
      const until = now() + SNOOZE_MS[span];
      return done(await store.snooze(chatId, watchId, until), chatId, userId, 'watch snoozed', { until });
    },
    /** The watch as awake: its held changes are told at the next wake round. */
    async resume(chatId: number, userId: number | undefined, watchId: number): Promise<OptionResult> {
      const watch = await store.resume(chatId, watchId, now());
      if (watch === undefined) return { kind: 'gone' };
      const { snoozedUntil: _, ...awake } = watch;
      return done(awake, chatId, userId, 'watch resumed');
    },
  };
};

export type WatchOptionsService = ReturnType<typeof createWatchOptions>;
