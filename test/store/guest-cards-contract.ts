import { describe, expect, it } from 'vitest';
import type { GuestCard } from '../../src/store/store.ts';
import { usePlace, type Backend } from './store-backends.ts';

// What every store's live guest cards must do (issue 32): run by guest-cards.test.ts for each
// backend, on a fresh, empty store per test.

const order = (value: string) => ({ resource: 'order', filter: 'SAP_ID', value }) as const;
const card = (id: string, value: string, expiresAt = 10_000, locale = 'en'): GuestCard => ({ inlineMessageId: id, query: order(value), locale, shown: `s-${id}`, expiresAt });
const ids = (cards: GuestCard[]) => cards.map((c) => c.inlineMessageId).sort();

export const describeGuestCardContract = (backend: Backend): void => {
  describe(`${backend.name}: guest cards`, () => {
    const place = usePlace(backend);

    it('claims the cards of a due query together, once per interval', async () => {
      const { guestCards } = await place().open();
      await guestCards.add(card('a', '0007300100'), 1_000);
      await guestCards.add(card('b', '0007300100', 10_000, 'ru'), 1_000);
      await guestCards.add(card('c', '0007300321'), 1_500);
      // Nothing checked before 999: nothing due.
      expect(await guestCards.claimDue(1_100, 999, 10)).toEqual([]);
      const first = await guestCards.claimDue(2_000, 1_000, 10);
      expect(ids(first)).toEqual(['a', 'b']);
      expect(first.find((c) => c.inlineMessageId === 'b')).toEqual(card('b', '0007300100', 10_000, 'ru'));
      // Claimed at 2000: not due again until the interval from then has passed; c is due now.
      expect(ids(await guestCards.claimDue(2_500, 1_500, 10))).toEqual(['c']);
      expect(await guestCards.claimDue(2_600, 1_600, 10)).toEqual([]);
      expect(ids(await guestCards.claimDue(4_000, 3_000, 10))).toEqual(['a', 'b', 'c']);
    });

    it('claims at most `limit` queries a round', async () => {
      const { guestCards } = await place().open();
      for (const value of ['0007300100', '0007300321', '0007300372']) await guestCards.add(card(value, value), 0);
      expect(await guestCards.claimDue(100, 0, 2)).toHaveLength(2);
      expect(await guestCards.claimDue(100, 0, 2)).toHaveLength(1);
    });

    it('remembers what a card shows, forgets a removed card, prunes expired ones', async () => {
      const { guestCards } = await place().open();
      await guestCards.add(card('a', '0007300100', 5_000), 0);
      await guestCards.add(card('b', '0007300321', 9_000), 0);
      await guestCards.add(card('c', '0007300372', 9_000), 0);
      await guestCards.setShown('a', 'new');
      await guestCards.remove('c');
      expect((await guestCards.claimDue(1_000, 0, 10)).map((c) => [c.inlineMessageId, c.shown]).sort()).toEqual([['a', 'new'], ['b', 's-b']]);
      expect(await guestCards.prune(5_000)).toBe(1);
      expect(ids(await guestCards.claimDue(6_000, 5_000, 10))).toEqual(['b']);
      // An expired card is never claimed, pruned or not.
      expect(await guestCards.claimDue(9_500, 9_000, 10)).toEqual([]);
    });

    it('keeps cards across a restart; adding one twice keeps the first', async () => {
      const before = await place().open();
      await before.guestCards.add(card('a', '0007300100'), 0);
      await before.guestCards.add({ ...card('a', '0007300321'), shown: 'other' }, 0);
      await before.close();
      const after = await place().open();
      expect(await after.guestCards.claimDue(100, 0, 10)).toEqual([card('a', '0007300100')]);
    });
  });
};
