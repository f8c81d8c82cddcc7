import { describe, expect, it } from 'vitest';
import { failure, usePlace, type Backend } from './store-backends.ts';

// What every store's access part must do, whatever keeps it: run by access.test.ts for each
// backend, on a fresh, empty store per test.

const DAY = 86_400_000;
const request = (userId: number, chatId = userId) => ({ userId, chatId, name: 'Ann Lee', username: 'ann', languageCode: 'ru' });

export const describeAccessContract = (backend: Backend): void => {
  describe(`${backend.name}: access`, () => {
    const place = usePlace(backend);

    it('allows users and groups once each, in memory at once, and lists them with who and when', async () => {
      const { access } = await place().open();
      expect([access.hasUser(42), access.hasChat(-100)]).toEqual([false, false]);
      expect(await access.allowUser({ id: 42, by: 1, at: 1_000, label: 'Ann Lee (@ann)' })).toBe(true);
      expect(await access.allowUser({ id: 42, by: 2, at: 2_000 })).toBe(false);
      expect(await access.allowChat({ id: -1001234567890, by: 1, at: 3_000, label: 'Sales' })).toBe(true);
      expect(await access.allowUser({ id: 8_000_000_000, by: 1, at: 4_000 })).toBe(true);
      expect([access.hasUser(42), access.hasUser(8_000_000_000), access.hasChat(-1001234567890), access.hasUser(-1001234567890), access.hasChat(42)]).toEqual([true, true, true, false, false]);
      expect(await access.users()).toEqual([
        { id: 42, addedAt: 1_000, addedBy: 1, label: 'Ann Lee (@ann)' },
        { id: 8_000_000_000, addedAt: 4_000, addedBy: 1 },
      ]);
      expect(await access.chats()).toEqual([{ id: -1001234567890, addedAt: 3_000, addedBy: 1, label: 'Sales' }]);
    });

    it('removes them, in memory at once; removing one not there changes nothing', async () => {
      const { access } = await place().open();
      await access.allowUser({ id: 42, by: 1, at: 1 });
      await access.allowChat({ id: -100, by: 1, at: 1 });
      expect(await access.denyUser(42)).toBe(true);
      expect(await access.denyUser(42)).toBe(false);
      expect(await access.denyChat(-100)).toBe(true);
      expect(await access.denyChat(-200)).toBe(false);
      expect([access.hasUser(42), access.hasChat(-100)]).toEqual([false, false]);
      expect([await access.users(), await access.chats()]).toEqual([[], []]);
    });

    it('keeps what was allowed across a restart, read into memory at open', async () => {
      const before = await place().open();
      await before.access.allowUser({ id: 42, by: 1, at: 1 });
      await before.access.allowChat({ id: -100, by: 1, at: 1 });
      await before.close();
      const after = await place().open();
      expect([after.access.hasUser(42), after.access.hasChat(-100)]).toEqual([true, true]);
    });

    it('refuses ids that are not Telegram ids, writing nothing', async () => {
      const { access } = await place().open();
      expect(await failure(() => access.allowUser({ id: 1.5, by: 1, at: 1 }))).toBeInstanceOf(RangeError);
      expect(await failure(() => access.allowChat({ id: -100, by: Number.NaN, at: 1 }))).toBeInstanceOf(RangeError);
      expect(await place().sql('SELECT count(*) AS n FROM access_users')).toEqual([{ n: 0 }]);
    });

    it('opens one request per user a day, each under a new id, and says when the last one was', async () => {
      const { access } = await place().open();
      const first = await access.openRequest({ ...request(42, -100), chatTitle: 'Sales' }, 10_000, DAY);
      expect(first).toEqual({ ok: true, request: { id: expect.any(Number), userId: 42, chatId: -100, chatTitle: 'Sales', name: 'Ann Lee', username: 'ann', languageCode: 'ru', createdAt: 10_000 } });
      expect(await access.openRequest(request(42), 10_000 + DAY - 1, DAY)).toEqual({ ok: false, lastAt: 10_000 });
      const other = await access.openRequest({ userId: 43, chatId: 43, name: 'Bob' }, 20_000, DAY);
      expect(other).toMatchObject({ ok: true, request: { userId: 43, name: 'Bob' } });
      expect(other.ok && 'username' in other.request).toBe(false);
      const next = await access.openRequest(request(42), 10_000 + DAY, DAY);
      if (!first.ok || !next.ok || !other.ok) throw new Error('the requests should have opened');
      expect(next.request).toMatchObject({ userId: 42, chatId: 42, createdAt: 10_000 + DAY });
      expect(new Set([first.request.id, other.request.id, next.request.id]).size).toBe(3);
      // The older request is gone with its buttons: its id decides nothing.
      expect(await access.request(first.request.id)).toBeUndefined();
      expect(await access.decide(first.request.id, 'allow', { id: 1, name: 'Admin' }, 30_000)).toEqual({ won: false });
    });

    it('lets the first decision win; a later one gets the request as decided', async () => {
      const { access } = await place().open();
      const opened = await access.openRequest(request(42), 1_000, DAY);
      if (!opened.ok) throw new Error('the request should have opened');
      const { id } = opened.request;
      const won = await access.decide(id, 'deny', { id: 1, name: 'Ann (@ann)' }, 2_000);
      expect(won).toEqual({ won: true, request: { ...opened.request, decision: 'deny', decidedBy: 1, decidedByName: 'Ann (@ann)', decidedAt: 2_000 } });
      expect(await access.decide(id, 'allow', { id: 2, name: 'Bob' }, 3_000)).toEqual({ won: false, request: won.request });
      expect(await access.request(id)).toEqual(won.request);
      // Deciding is not allowing: the store's list is the admins' to change.
      expect(access.hasUser(42)).toBe(false);
    });

    it('keeps each admin’s copy of a request, to edit once decided', async () => {
      const { access } = await place().open();
      const opened = await access.openRequest(request(42), 1_000, DAY);
      if (!opened.ok) throw new Error('the request should have opened');
      await access.addRequestMessage(opened.request.id, { chatId: 2, messageId: 7 });
      await access.addRequestMessage(opened.request.id, { chatId: 1, messageId: 5 });
      await access.addRequestMessage(opened.request.id, { chatId: 1, messageId: 6 });
      expect(await access.requestMessages(opened.request.id)).toEqual([
        { chatId: 1, messageId: 6 },
        { chatId: 2, messageId: 7 },
      ]);
      expect(await access.requestMessages(opened.request.id + 1000)).toEqual([]);
    });
  });
};
