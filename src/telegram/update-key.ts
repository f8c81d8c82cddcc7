import type { Update } from 'telegraf/types';

type Payload = {
  chat?: { id: number };
  message?: { chat?: { id: number } };
  from?: { id: number };
  user?: { id: number };
};

/**
 * The chat an update belongs to, else the user who caused it (inline queries, callbacks on inline
 * messages), else undefined. One number space on purpose: a private chat's id is its user's id, so
 * a user's inline queries queue behind their own messages.
 */
export const updateKey = (update: Update): number | undefined => {
  const payload = Object.entries(update).find(([field]) => field !== 'update_id')?.[1] as Payload | undefined;
  if (payload === undefined || typeof payload !== 'object') return undefined;
  return payload.chat?.id ?? payload.message?.chat?.id ?? payload.from?.id ?? payload.user?.id;
};
