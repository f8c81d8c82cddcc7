import type { Update } from './telegraf/core.ts';

// Only update_id is checked at the edge, so any field here may be missing, null or of the wrong
// type: every read is guarded, and an update that cannot be keyed runs unkeyed rather than throw.

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const field = (value: unknown, name: string): unknown => (isObject(value) ? value[name] : undefined);

const idOf = (value: unknown): number | undefined => {
  const id = field(value, 'id');
  return typeof id === 'number' && Number.isFinite(id) ? id : undefined;
};

/**
 * The chat an update belongs to, else the user who caused it (inline queries, callbacks on inline
 * messages), else undefined. One number space on purpose: a private chat's id is its user's id, so
 * a user's inline queries queue behind their own messages.
 */
export const updateKey = (update: Update): number | undefined => {
  const payload = Object.entries(update).find(([name]) => name !== 'update_id')?.[1] as unknown;
  if (!isObject(payload)) return undefined;
  return idOf(payload.chat) ?? idOf(field(payload.message, 'chat')) ?? idOf(payload.from) ?? idOf(payload.user);
};
