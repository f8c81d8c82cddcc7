import { z } from 'zod';
import { storedQuery } from './query-store.ts';
import type { GuestCard } from './store.ts';

// A guest_cards row as both backends read it: one this version cannot read is skipped (and forgotten
// when it expires), never a crash of the refresh.

const row = z.object({
  inline_message_id: z.string().min(1),
  query: z.string(),
  locale: z.string(),
  shown: z.string(),
  expires_at: z.coerce.number(),
});

export const guestCardOf = (value: unknown): GuestCard | undefined => {
  const parsed = row.safeParse(value);
  if (!parsed.success) return undefined;
  let query: unknown;
  try {
    query = JSON.parse(parsed.data.query);
  } catch {
    return undefined;
  }
  const checked = storedQuery.safeParse(query);
  if (!checked.success) return undefined;
  const { inline_message_id: inlineMessageId, locale, shown, expires_at: expiresAt } = parsed.data;
  return { inlineMessageId, query: checked.data, locale, shown, expiresAt };
};

/** The key a card's query is grouped by: the cards of one query are checked together. */
export const guestQueryKey = (card: Pick<GuestCard, 'query'>): string => JSON.stringify([card.query.resource, card.query.filter, card.query.value]);
