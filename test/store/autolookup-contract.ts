import { describe, expect, it } from 'vitest';
import { usePlace, type Backend } from './store-backends.ts';

// What every store's /autolookup switch must do (issue 30): run by autolookup.test.ts for each
// backend, on a fresh, empty store per test.

export const describeAutolookupContract = (backend: Backend): void => {
  describe(`${backend.name}: autolookup`, () => {
    const place = usePlace(backend);

    it('is off until an admin turns it on, per group, and off again', async () => {
      const { autolookup } = await place().open();
      expect(await autolookup.enabled(-100)).toBe(false);
      await autolookup.set(-100, true, 42, 1_000);
      expect(await autolookup.enabled(-100)).toBe(true);
      expect(await autolookup.enabled(-200)).toBe(false);
      await autolookup.set(-100, true, 43, 2_000);
      expect(await autolookup.enabled(-100)).toBe(true);
      await autolookup.set(-100, false, 42, 3_000);
      expect(await autolookup.enabled(-100)).toBe(false);
      await autolookup.set(-200, false, 42, 3_000);
      expect(await autolookup.enabled(-200)).toBe(false);
    });

    it('keeps it across a restart, for supergroup ids past 2^32', async () => {
      const before = await place().open();
      await before.autolookup.set(-1001234567890, true, 8_000_000_000, 1_000);
      await before.close();
      const after = await place().open();
      expect(await after.autolookup.enabled(-1001234567890)).toBe(true);
      expect(await place().sql('SELECT chat_id, enabled_by FROM autolookup_chats')).toEqual([{ chat_id: -1001234567890, enabled_by: 8_000_000_000 }]);
    });

    it('refuses an id that is no Telegram id', async () => {
      const { autolookup } = await place().open();
      await expect(async () => autolookup.set(Number.NaN, true, 1, 0)).rejects.toThrow(RangeError);
    });
  });
};
