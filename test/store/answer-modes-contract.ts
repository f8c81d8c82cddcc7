import { describe, expect, it } from 'vitest';
import { usePlace, type Backend } from './store-backends.ts';

// What every store's /answers mode must do (issue 32): run by answer-modes.test.ts for each
// backend, on a fresh, empty store per test.

export const describeAnswerModesContract = (backend: Backend): void => {
  describe(`${backend.name}: answer modes`, () => {
    const place = usePlace(backend);

    it('is public until an admin makes it private, per group, and public again', async () => {
      const { answerModes } = await place().open();
      expect(await answerModes.mode(-100)).toBe('public');
      await answerModes.set(-100, 'private', 42, 1_000);
      expect(await answerModes.mode(-100)).toBe('private');
      expect(await answerModes.mode(-200)).toBe('public');
      await answerModes.set(-100, 'private', 43, 2_000);
      expect(await answerModes.mode(-100)).toBe('private');
      await answerModes.set(-100, 'public', 42, 3_000);
      expect(await answerModes.mode(-100)).toBe('public');
      await answerModes.set(-200, 'public', 42, 3_000);
      expect(await answerModes.mode(-200)).toBe('public');
    });

    it('keeps it across a restart, for supergroup ids past 2^32, with who set it', async () => {
      const before = await place().open();
      await before.answerModes.set(-1001234567890, 'private', 8_000_000_000, 1_000);
      await before.close();
      const after = await place().open();
      expect(await after.answerModes.mode(-1001234567890)).toBe('private');
      expect(await place().sql('SELECT chat_id, set_by FROM private_answer_chats')).toEqual([{ chat_id: -1001234567890, set_by: 8_000_000_000 }]);
    });

    it('refuses an id that is no Telegram id', async () => {
      const { answerModes } = await place().open();
      await expect(async () => answerModes.set(Number.NaN, 'private', 1, 0)).rejects.toThrow(RangeError);
    });
  });
};
