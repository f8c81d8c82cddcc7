import type { Logger } from 'pino';
import { rememberedFor } from '../remembered.ts';
import type { AutolookupStore } from '../store/store.ts';
import { createStoreTrouble } from './middleware/store-trouble.ts';

// Whether a group's every message is read for identifiers (/autolookup): in the store, shared by
// replicas, and asked of it at most once per READ_EVERY_MS per group, since every message of such
// a group asks. A switch made through this process holds here at once; one made through another
// replica, within READ_EVERY_MS.

export const READ_EVERY_MS = 10_000;
const MAX_REMEMBERED = 10_000;

export type AutolookupSwitch = ReturnType<typeof createAutolookupSwitch>;

export const createAutolookupSwitch = ({ store, logger, now }: { store: AutolookupStore; logger: Logger; now: () => number }) => {
  const storeTrouble = createStoreTrouble(logger, 'the /autolookup switches cannot reach the store: groups are not read until it answers', now);
  const remembered = rememberedFor<number, boolean>({ ttlMs: READ_EVERY_MS, max: MAX_REMEMBERED, now });
  return {
    /** On for this group; off while the store does not answer (reading chatter is never urgent). */
    async enabled(chatId: number): Promise<boolean> {
      const known = remembered.get(chatId);
      if (known !== undefined) return known;
      try {
        const on = await store.enabled(chatId);
        remembered.set(chatId, on);
        return on;
      } catch (error) {
        if (!storeTrouble(error)) throw error;
        return false;
      }
    },
    async set(chatId: number, on: boolean, userId: number): Promise<void> {
      await store.set(chatId, on, userId, now());
      remembered.set(chatId, on);
    },
  };
};
