import type { Logger } from 'pino';
import type { Results } from '../portal/client.ts';
import type { Query, Resource } from '../query.ts';
import { NO_STATUS_NAMES, type KnownStatus, type StatusField, type StatusKind, type StatusNames } from '../status-names.ts';
import type { StatusPair, StatusStore } from '../store/store.ts';
import { createStoreTrouble } from './middleware/store-trouble.ts';

// Statuses by name: the bot learns the pairs (code, text) from every record it finds and keeps
// them in the store (replicas share them); the operator's STATUS_NAMES_FILE adds names in both
// languages. What a user types after `status` (or `type`) is mapped to a code here.


export type StatusChoice =
  /** The query to run: the value was a code, or named exactly one. */
  | { kind: 'query'; query: Query }
  /** The value names no status the bot knows (`known` to choose from), or several (`known` are those). */
  | { kind: 'choose'; reason: 'unknown' | 'several'; value: string; known: KnownStatus[] };

/** How long this process reads the learned statuses from memory before asking the store again. */
const READ_EVERY_MS = 60_000;
/** A portal sending ever new codes must not grow the memory without end. */
const MAX_KNOWN = 1_000;

const kindOf = (resource: Resource, field: StatusField): StatusKind => (field === 'STATUS_TYPE' ? 'type' : resource);
const same = (text: string): string => text.trim().toLowerCase().replaceAll('ё', 'е').replace(/\s+/g, ' ');
/** A value a user may mean as a code the bot has not seen yet: the portal gets it as typed. */
const looksLikeCode = (value: string): boolean => /^[A-Za-z0-9_.-]{1,64}$/.test(value);

/** Codes in the order people read them: numbers by value (10, 15, 20 … 70), other codes as text. */
const byCode = (left: string, right: string): number =>
  /^\d+$/.test(left) && /^\d+$/.test(right) ? Number(left) - Number(right) : left < right ? -1 : left > right ? 1 : 0;

/** The pairs a page of records shows: an order's status and its text; a specification's status and type. */
export const statusesOf = (results: Results): StatusPair[] =>
  results.resource === 'order'
    ? results.page.items.map((order) => ({ resource: 'order', field: 'STATUS', code: order.STATUS, text: order.STATUS_TEXT }))
    : results.page.items.flatMap((spec): StatusPair[] => [
        { resource: 'specification', field: 'STATUS', code: spec.STATUS, text: '' },
        { resource: 'specification', field: 'STATUS_TYPE', code: spec.STATUS_TYPE, text: '' },
      ]);

export type Statuses = ReturnType<typeof createStatuses>;

export const createStatuses = ({ store, names = NO_STATUS_NAMES, logger, now }: { store: StatusStore; names?: StatusNames; logger: Logger; now: () => number }) => {
  const storeTrouble = createStoreTrouble(logger, 'the learned statuses cannot reach the store: statuses known so far are used', now);
  const pagesSeen = new WeakSet<object>();
  /** What this process knows, keyed by resource, field and code: the text seen last. */
  const known = new Map<string, StatusPair>();
  const keyOf = (pair: StatusPair) => `${pair.resource}\n${pair.field}\n${pair.code}`;
  let readAt: number | undefined;

  const read = async (): Promise<void> => {
    if (readAt !== undefined && now() - readAt < READ_EVERY_MS) return;
    try {
      for (const pair of await store.all()) if (!known.has(keyOf(pair)) && known.size < MAX_KNOWN) known.set(keyOf(pair), pair);
      readAt = now();
    } catch (error) {
      if (!storeTrouble(error)) throw error;
    }
  };

  const knownOf = async (resource: Resource, field: StatusField): Promise<KnownStatus[]> => {
    await read();
    const kind = kindOf(resource, field);
    const all = new Map<string, KnownStatus>();
    for (const pair of known.values()) if (pair.resource === resource && pair.field === field && pair.code !== '') all.set(pair.code, { code: pair.code, text: pair.text });
    for (const { code, names: given } of names.named(kind)) all.set(code, { code, text: all.get(code)?.text ?? '', names: given });
    // In the order people read codes: 10, 15, 20 … 70; production before production_evaluation.
    return [...all.values()].sort((left, right) => byCode(left.code, right.code));
  };

  return {
    /** A page found: the pairs this process had not seen are kept (a failing store loses nothing but them). */
    seen(results: Results): void {
      // A page the portal cache hands out again (the same object) has nothing new to tell.
      if (pagesSeen.has(results.page.items)) return;
      pagesSeen.add(results.page.items);
      const fresh = statusesOf(results).filter((pair) => pair.code.trim() !== '' && known.get(keyOf(pair))?.text !== pair.text.trim());
      if (fresh.length === 0 || known.size >= MAX_KNOWN) return;
      for (const pair of fresh) known.set(keyOf(pair), { ...pair, code: pair.code.trim(), text: pair.text.trim() });
      Promise.resolve()
        .then(() => store.learn(fresh, now()))
        .catch((error: unknown) => {
          if (!storeTrouble(error)) logger.error({ err: error }, 'the learned statuses were not kept');
        });
    },

    /** The statuses known for a filter, for buttons. */
    known: knownOf,

    /** The query with a status named by its text as its code, when the name is of exactly one; else as it is (/watch, /export, inline). */
    async codeFor(query: Query): Promise<Query> {
      const choice = await this.resolve(query);
      return choice.kind === 'query' ? choice.query : query;
    },

    /** What a typed status (or status type) means; any other filter's query as it is. */
    async resolve(query: Query): Promise<StatusChoice> {
      if (query.filter !== 'STATUS' && query.filter !== 'STATUS_TYPE') return { kind: 'query', query };
      const field = query.filter;
      const value = query.value;
      const all = await knownOf(query.resource, field);
      const byCode = all.find((status) => status.code.toLowerCase() === value.toLowerCase());
      if (byCode) return { kind: 'query', query: { ...query, value: byCode.code } as Query };
      const byName = new Set([
        ...all.filter((status) => status.text !== '' && same(status.text) === same(value)).map((status) => status.code),
        ...names.codesNamed(kindOf(query.resource, field), value),
      ]);
      if (byName.size === 1) return { kind: 'query', query: { ...query, value: [...byName][0]! } as Query };
      if (byName.size > 1) return { kind: 'choose', reason: 'several', value, known: all.filter((status) => byName.has(status.code)) };
      if (looksLikeCode(value)) return { kind: 'query', query };
      return { kind: 'choose', reason: 'unknown', value, known: all };
    },
  };
};
