import { describe, expect, it } from 'vitest';
import { usePlace, type Backend } from './store-backends.ts';

// What every store's limits (flood windows, refusal quiet periods) must do, whatever keeps them:
// run by limits.test.ts for each backend, on a fresh, empty store per test.

export const T0 = Date.UTC(2026, 0, 1);
export const WINDOW = 10_000;

export const describeLimitsContract = (backend: Backend): void => {
  describe(`${backend.name}: limits`, () => {
    const place = usePlace(backend);
    const open = async () => (await place().open()).limits;

    it('counts the hits of a user in their window, and starts again after it', async () => {
      const limits = await open();
      expect(await limits.hit(1, T0, WINDOW)).toBe(1);
      expect(await limits.hit(1, T0 + 1, WINDOW)).toBe(2);
      expect(await limits.hit(1, T0 + WINDOW - 1, WINDOW)).toBe(3);
      // The window started at the first hit and lasted WINDOW: the next hit opens a new one.
      expect(await limits.hit(1, T0 + WINDOW, WINDOW)).toBe(1);
      expect(await limits.hit(1, T0 + 2 * WINDOW - 1, WINDOW)).toBe(2);
      expect(await limits.hit(1, T0 + 2 * WINDOW, WINDOW)).toBe(1);
    });

    it('counts several queries at once as that many hits (a pasted text of several numbers)', async () => {
      const limits = await open();
      expect(await limits.hit(1, T0, WINDOW, 3)).toBe(3);
      expect(await limits.hit(1, T0 + 1, WINDOW)).toBe(4);
      expect(await limits.hit(1, T0 + 2, WINDOW, 10)).toBe(14);
      expect(await limits.hit(1, T0 + WINDOW, WINDOW, 2)).toBe(2);
    });

    it('counts each user on their own, apart from quiet periods', async () => {
      const limits = await open();
      expect(await limits.hit(1, T0, WINDOW)).toBe(1);
      expect(await limits.hit(2, T0, WINDOW)).toBe(1);
      expect(await limits.hit(1, T0, WINDOW)).toBe(2);
      expect(await limits.take('user:1', T0, WINDOW)).toBe(true);
      expect(await limits.hit(1, T0, WINDOW)).toBe(3);
    });

    it('allows one take per quiet period', async () => {
      const limits = await open();
      expect(await limits.take('refusal:42:-100', T0, WINDOW)).toBe(true);
      expect(await limits.take('refusal:42:-100', T0 + 1, WINDOW)).toBe(false);
      expect(await limits.take('refusal:42:-100', T0 + WINDOW - 1, WINDOW)).toBe(false);
      expect(await limits.take('refusal:42:-200', T0 + 1, WINDOW)).toBe(true);
      expect(await limits.take('refusal:42:-100', T0 + WINDOW, WINDOW)).toBe(true);
      expect(await limits.take('refusal:42:-100', T0 + WINDOW + 1, WINDOW)).toBe(false);
    });

    it('forgets on a sweep the windows and quiet periods over by then, and only those', async () => {
      const limits = await open();
      await limits.hit(11, T0, WINDOW);
      await limits.hit(11, T0, WINDOW);
      await limits.hit(12, T0 + 5_000, WINDOW);
      await limits.take('quiet-early', T0, WINDOW);
      await limits.take('quiet-late', T0 + 5_000, WINDOW);
      await limits.sweep(T0 + WINDOW);
      // Asked about a moment before the sweep: what was forgotten counts from scratch, what was
      // kept goes on (times are the caller's, so this tells the two apart).
      expect(await limits.hit(11, T0 + WINDOW - 1, WINDOW)).toBe(1);
      expect(await limits.hit(12, T0 + WINDOW - 1, WINDOW)).toBe(2);
      expect(await limits.take('quiet-early', T0 + WINDOW - 1, WINDOW)).toBe(true);
      expect(await limits.take('quiet-late', T0 + WINDOW - 1, WINDOW)).toBe(false);
    });
  });
};
