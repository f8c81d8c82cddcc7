import type { DatabaseSync } from 'node:sqlite';
import { guestCardOf, guestQueryKey } from '../guest-card-rows.ts';
import type { GuestCard, GuestCardStore } from '../store.ts';
import { immediately } from './transaction.ts';

/** Guest cards kept live (issue 32): a row per card, its query's key beside it. */
export const createSqliteGuestCardStore = (db: DatabaseSync): GuestCardStore => {
  const insert = db.prepare(`
    INSERT INTO guest_cards (inline_message_id, query_key, query, locale, shown, expires_at, checked_at)
    VALUES (:id, :key, :query, :locale, :shown, :expires, :now)
    ON CONFLICT (inline_message_id) DO NOTHING`);
  const dueKeys = db.prepare('SELECT DISTINCT query_key FROM guest_cards WHERE checked_at <= ? AND expires_at > ? ORDER BY query_key LIMIT ?');
  const cardsOf = db.prepare('SELECT * FROM guest_cards WHERE query_key = ? AND expires_at > ?');
  const mark = db.prepare('UPDATE guest_cards SET checked_at = ? WHERE query_key = ?');
  const setShown = db.prepare('UPDATE guest_cards SET shown = ? WHERE inline_message_id = ?');
  const remove = db.prepare('DELETE FROM guest_cards WHERE inline_message_id = ?');
  const prune = db.prepare('DELETE FROM guest_cards WHERE expires_at <= ?');
  return {
    add(card, now) {
      insert.run({ id: card.inlineMessageId, key: guestQueryKey(card), query: JSON.stringify(card.query), locale: card.locale, shown: card.shown, expires: card.expiresAt, now });
    },
    claimDue: (now, dueBefore, limit) =>
      immediately(db, () => {
        const cards: GuestCard[] = [];
        for (const { query_key: key } of dueKeys.all(dueBefore, now, limit) as Array<{ query_key: string }>) {
          mark.run(now, key);
          for (const row of cardsOf.all(key, now)) {
            const card = guestCardOf(row);
            if (card) cards.push(card);
          }
        }
        return cards;
      }),
    setShown(inlineMessageId, shown) {
      setShown.run(shown, inlineMessageId);
    },
    remove(inlineMessageId) {
      remove.run(inlineMessageId);
    },
    prune: (now) => Number(prune.run(now).changes),
  };
};
