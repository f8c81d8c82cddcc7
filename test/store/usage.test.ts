import { describe, expect, it } from 'vitest';
import { describeUsageContract } from './usage-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeUsageContract(sqliteBackend());
const postgres = postgresBackend();
describeUsageContract(postgres);

describe('postgres: usage counters added by two replicas at once', () => {
  const place = usePlace(postgres);

  it('lose no count and never deadlock, whatever order their keys come in', async () => {
    const [one, two] = [await place().open(), await place().open()];
    const keys = Array.from({ length: 30 }, (_, index) => `k${index}`);
    const batch = (order: string[]) => ({ counts: order.map((key) => ({ day: '2026-11-23', name: 'n', key, value: 1 })), users: order.map((_, index) => ({ day: '2026-11-23', userId: index + 1 })), seen: order.map((_, index) => ({ id: index + 1, at: index })) });
    await Promise.all(Array.from({ length: 10 }, (_, round) => (round % 2 === 0 ? one : two).usage.add(batch(round % 2 === 0 ? keys : [...keys].reverse()))));
    const counts = await one.usage.counts('2026-11-23');
    expect(counts).toHaveLength(30);
    expect(counts.every((row) => row.value === 10)).toBe(true);
    expect(await two.usage.activeUsers('2026-11-23')).toBe(30);
  });
});
