import type pg from 'pg';
import { guestCardOf, guestQueryKey } from '../guest-card-rows.ts';
import type { GuestCard, GuestCardStore } from '../store.ts';

/**
 * Guest cards kept live (issue 32), shared by replicas: a query's cards are claimed by one UPDATE
 * that re-checks checked_at, so two replicas never check the same query in one interval.
 */
export const createPostgresGuestCardStore = (pool: pg.Pool): GuestCardStore => ({
  async add(card, now) {
    await pool.query(
      `INSERT INTO guest_cards (inline_message_id, query_key, query, locale, shown, expires_at, checked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (inline_message_id) DO NOTHING`,
      [card.inlineMessageId, guestQueryKey(card), JSON.stringify(card.query), card.locale, card.shown, card.expiresAt, now],
    );
  },
  async claimDue(now, dueBefore, limit) {
    const { rows } = await pool.query(
      `WITH due AS (
         SELECT DISTINCT query_key FROM guest_cards WHERE checked_at <= $1 AND expires_at > $2 ORDER BY query_key LIMIT $3
       )
       UPDATE guest_cards g SET checked_at = $2 FROM due
       WHERE g.query_key = due.query_key AND g.checked_at <= $1
       RETURNING g.*`,
      [dueBefore, now, limit],
    );
    return rows.flatMap((row): GuestCard[] => {
      const card = guestCardOf(row);
      return card && card.expiresAt > now ? [card] : [];
    });
  },
  async setShown(inlineMessageId, shown) {
    await pool.query('UPDATE guest_cards SET shown = $1 WHERE inline_message_id = $2', [shown, inlineMessageId]);
  },
  async remove(inlineMessageId) {
    await pool.query('DELETE FROM guest_cards WHERE inline_message_id = $1', [inlineMessageId]);
  },
  async prune(now) {
    const { rowCount } = await pool.query('DELETE FROM guest_cards WHERE expires_at <= $1', [now]);
    return rowCount ?? 0;
  },
});
