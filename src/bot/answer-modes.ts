import { rememberedFor } from '../remembered.ts';
import type { AnswerMode, AnswerModeStore } from '../store/store.ts';

// A group's answer mode (/answers, issue 32): in the store, shared by replicas, and asked of it at
// most once per READ_EVERY_MS per group, since every lookup in a group asks. A switch made through
// this process holds here at once; one made through another replica, within READ_EVERY_MS. A store
// that does not answer fails the lookup (store trouble is said as such): an unknown mode must not
// turn into answers for everyone.

export const READ_EVERY_MS = 10_000;
const MAX_REMEMBERED = 10_000;

export type AnswerModes = ReturnType<typeof createAnswerModes>;

export const createAnswerModes = ({ store, now }: { store: AnswerModeStore; now: () => number }) => {
  const remembered = rememberedFor<number, AnswerMode>({ ttlMs: READ_EVERY_MS, max: MAX_REMEMBERED, now });
  return {
    async mode(chatId: number): Promise<AnswerMode> {
      const known = remembered.get(chatId);
      if (known !== undefined) return known;
      const mode = await store.mode(chatId);
      remembered.set(chatId, mode);
      return mode;
    },
    async set(chatId: number, mode: AnswerMode, userId: number): Promise<void> {
      await store.set(chatId, mode, userId, now());
      remembered.set(chatId, mode);
    },
  };
};
