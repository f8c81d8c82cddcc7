import type { Logger } from 'pino';
import { fetchResults, type PortalClient, type Results } from '../portal/client.ts';
import { isQueryValue, type PageSize, type Query } from '../query.ts';
import { canInline, type CallbackAction, type QueryRef } from './callback-data/codec.ts';
import type { BotContext } from './context.ts';
import { lastPageOffset } from './paging.ts';
import type { QueryStore } from '../store/query-store.ts';
import { rememberedFor } from '../remembered.ts';

export type Lookups = ReturnType<typeof createLookups>;

/**
 * How a lookup was asked, for its audit line: a command, a button, inline mode, a pasted text (a
 * reply to the bot's message too), a mention of the bot in a group, a group's /autolookup, a
 * mention in a chat the bot is not in (guest mode).
 */
export type Via = 'command' | 'button' | 'inline' | 'pasted' | 'mention' | 'autolookup' | 'guest';

/** Who asked, for the audit line: the update's user and chat, and how they asked. */
export const asker = (ctx: BotContext, via: Via) => ({
  userId: ctx.from?.id,
  chatId: ctx.chat?.id,
  via,
});

/** What every feature that shows results needs: button references to queries, and pages. */
/** The portal, and where it caches, a way past the cache for Refresh and one that keeps nothing for exports. */
export type LookupPortal = PortalClient & { fresh?: PortalClient; bulk?: PortalClient & { fresh?: PortalClient } };

/**
 * How long this process takes a query it saved as still in the store: saving it again within
 * that time would change nothing (the store touches a query at most once an hour and forgets it
 * only after days unused), so the lookup makes no store call for it.
 */
const SAVED_FOR_MS = 10 * 60_000;
const MAX_SAVED = 4_096;

export type LookupsDeps = {
  portal: LookupPortal;
  queries: QueryStore;
  logger: Logger;
  now?: () => number;
  /** Shown every page found (the statuses in it are learned: src/bot/statuses.ts). */
  seen?: (results: Results) => void;
  /** Told of each lookup (how it was asked, what it asked): /stats's counters. */
  counted?: (via: string, query: Query) => void;
};

export const createLookups = ({ portal, queries, logger, now = Date.now, seen, counted }: LookupsDeps) => {
  /** Queries too long for a button, by their text, with their key, as this process saved them. */
  const saved = rememberedFor<string, string>({ ttlMs: SAVED_FOR_MS, max: MAX_SAVED, now });
  // A key is its query's fingerprint (queryKey, src/store/query-store.ts): what it names never changes, so a
  // query read once is taken as read for a while (the store's own use-time is kept hourly anyway).
  const loaded = rememberedFor<string, Query>({ ttlMs: SAVED_FOR_MS, max: MAX_SAVED, now });
  const save = async (query: Query): Promise<string> => {
    const text = `${query.resource}\n${query.filter}\n${query.value}`;
    const known = saved.get(text);
    if (known !== undefined) return known;
    const key = await queries.save(query);
    saved.set(text, key);
    if (isQueryValue(query.filter, query.value)) loaded.set(key, query);
    return key;
  };

  return {
    /** The query inside the button when it fits, else a short key to the store. */
    refFor: async (query: Query): Promise<QueryRef> => (canInline(query) ? { query } : { key: await save(query) }),

    /** The query's key in the store (saved there now if need be): what a `/start` link carries. */
    keyFor: (query: Query): Promise<string> => save(query),

    /** The query behind a button; a stored one is checked again as a typed command is (the store may be older). */
    resolve: async (ref: QueryRef): Promise<Query | undefined> => {
      if ('query' in ref) return ref.query;
      const known = loaded.get(ref.key);
      if (known !== undefined) return known;
      const stored = await queries.load(ref.key);
      if (stored === undefined || !isQueryValue(stored.filter, stored.value)) return undefined;
      loaded.set(ref.key, stored);
      return stored;
    },

    /**
     * A page of results; a page past the end (the data moved) falls back to the last one, unless
     * `exact` (a record button wants its own page or nothing); `fresh` skips cached answers (Refresh).
     * Each lookup leaves one audit line: who, what, how many, how long.
     */
    async fetchPage(
      query: Query,
      limit: PageSize,
      offset: number,
      who: ReturnType<typeof asker>,
      { exact = false, fresh = false }: { exact?: boolean; fresh?: boolean } = {},
    ): Promise<Results> {
      const source = fresh ? (portal.fresh ?? portal) : portal;
      const started = performance.now();
      const audit = { audit: true, ...who, resource: query.resource, filter: query.filter, value: query.value, limit, offset };
      counted?.(who.via, query);
      try {
        let results = await fetchResults(source, query, { limit, offset });
        const last = lastPageOffset(results.page.total, limit);
        if (!exact && results.page.items.length === 0 && offset > last) results = await fetchResults(source, query, { limit, offset: last });
        const ms = Math.round(performance.now() - started);
        logger.info({ ...audit, results: results.page.items.length, total: results.page.total, ms }, 'lookup');
        seen?.(results);
        return results;
      } catch (error) {
        logger.info({ ...audit, failed: (error as Error).name, ms: Math.round(performance.now() - started) }, 'lookup');
        throw error;
      }
    },

    /**
     * A press of a button that shows a page again (◀ ▶, 🔄, a record): its query resolved (else the
     * stale-button alert, and undefined), the press answered, "Try again" set, the page fetched.
     */
    async pressed(
      ctx: BotContext,
      action: { ref: QueryRef; limit: PageSize; offset: number; refresh: boolean },
      retry: CallbackAction,
      { exact = false }: { exact?: boolean } = {},
    ): Promise<Results | undefined> {
      const query = await this.resolve(action.ref);
      if (!query) {
        await ctx.answerOnce(ctx.t('errors.staleButton'), true);
        return undefined;
      }
      await ctx.answerOnce(action.refresh ? ctx.t('refresh.started') : undefined);
      ctx.retry = retry;
      return this.fetchPage(query, action.limit, action.offset, asker(ctx, 'button'), { exact, fresh: action.refresh });
    },
  };
};
