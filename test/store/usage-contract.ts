import { describe, expect, it } from 'vitest';
import { usePlace, type Backend } from './store-backends.ts';

// What every store's usage counters must do: run by usage.test.ts for each backend.

export const describeUsageContract = (backend: Backend): void => {
  describe(`${backend.name}: usage counters`, () => {
    const place = usePlace(backend);

    it('adds counts up per day, name and key, and reads them from a day on', async () => {
      const { usage } = await place().open();
      await usage.add({ counts: [{ day: '2026-11-22', name: 'lookup.via', key: 'command', value: 2 }], users: [], seen: [] });
      await usage.add({
        counts: [
          { day: '2026-11-23', name: 'lookup.via', key: 'command', value: 3 },
          { day: '2026-11-23', name: 'lookup.via', key: 'button', value: 1 },
          { day: '2026-11-22', name: 'lookup.via', key: 'command', value: 5 },
        ],
        users: [],
        seen: [],
      });
      expect(await usage.counts('2026-11-22')).toEqual([
        { day: '2026-11-22', name: 'lookup.via', key: 'command', value: 7 },
        { day: '2026-11-23', name: 'lookup.via', key: 'button', value: 1 },
        { day: '2026-11-23', name: 'lookup.via', key: 'command', value: 3 },
      ]);
      expect(await usage.counts('2026-11-23')).toHaveLength(2);
    });

    it('counts each active user once per period, whatever the days and batches', async () => {
      const { usage } = await place().open();
      await usage.add({ counts: [], users: [{ day: '2026-11-20', userId: 1 }, { day: '2026-11-23', userId: 1 }, { day: '2026-11-23', userId: 2 }], seen: [] });
      await usage.add({ counts: [], users: [{ day: '2026-11-23', userId: 2 }, { day: '2026-11-23', userId: 8_000_000_000 }], seen: [] });
      expect(await usage.activeUsers('2026-11-23')).toBe(3);
      expect(await usage.activeUsers('2026-11-01')).toBe(3);
      expect(await usage.activeUsers('2026-11-24')).toBe(0);
    });

    it('moves last-seen times forward only, users and groups alike', async () => {
      const { usage } = await place().open();
      await usage.add({ counts: [], users: [], seen: [{ id: 42, at: 2_000 }, { id: -1001234567890, at: 1_000 }] });
      await usage.add({ counts: [], users: [], seen: [{ id: 42, at: 1_500 }, { id: -1001234567890, at: 3_000 }] });
      expect(await usage.lastSeen([42, -1001234567890, 7])).toEqual(new Map([[42, 2_000], [-1001234567890, 3_000]]));
      expect(await usage.lastSeen([])).toEqual(new Map());
    });

    it('forgets the days before the one given', async () => {
      const { usage } = await place().open();
      await usage.add({
        counts: [
          { day: '2026-08-24', name: 'export', key: 'sent', value: 1 },
          { day: '2026-08-25', name: 'export', key: 'sent', value: 1 },
        ],
        users: [{ day: '2026-08-24', userId: 1 }, { day: '2026-08-25', userId: 2 }],
        seen: [],
      });
      await usage.prune('2026-08-25');
      expect(await usage.counts('2000-01-01')).toEqual([{ day: '2026-08-25', name: 'export', key: 'sent', value: 1 }]);
      expect(await usage.activeUsers('2000-01-01')).toBe(1);
    });
  });
};
