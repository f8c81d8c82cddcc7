import { contentKey } from '../short-hash.ts';
import type { WatchTarget } from './watch-store.ts';

// A watched target is polled once however many chats watch it: its key is derived from its
// content, so every chat and every process that watches the same query (or the same record of
// it) finds the same row, and the bot can tell whether a chat already watches what it shows.

export const targetKey = (target: WatchTarget): string =>
  contentKey(JSON.stringify([target.query.resource, target.query.filter, target.query.value, target.sapId ?? null]), 16);
