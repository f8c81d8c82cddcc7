import { describe, expect, it } from 'vitest';
import { describeAccessContract } from './access-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeAccessContract(sqliteBackend());
const postgres = postgresBackend();
describeAccessContract(postgres);

describe('postgres: access requests decided by two replicas at once', () => {
  const place = usePlace(postgres);

  it('one decision wins, whichever comes first; the other is told it was decided', async () => {
    const [one, two] = [await place().open(), await place().open()];
    for (let round = 0; round < 5; round += 1) {
      const opened = await one.access.openRequest({ userId: 100 + round, chatId: 100 + round, name: 'Ann' }, 1_000, 86_400_000);
      if (!opened.ok) throw new Error('the request should have opened');
      const results = await Promise.all([one.access.decide(opened.request.id, 'allow', { id: 1, name: 'One' }, 2_000), two.access.decide(opened.request.id, 'deny', { id: 2, name: 'Two' }, 2_000)]);
      expect(results.filter((result) => result.won)).toHaveLength(1);
      const winner = results.find((result) => result.won)!.request!;
      expect(results.find((result) => !result.won)?.request).toEqual(winner);
    }
  });

  it('two presses of Request access at once open one request', async () => {
    const [one, two] = [await place().open(), await place().open()];
    const results = await Promise.all([one.access.openRequest({ userId: 42, chatId: 42, name: 'Ann' }, 1_000, 86_400_000), two.access.openRequest({ userId: 42, chatId: 42, name: 'Ann' }, 1_000, 86_400_000)]);
    expect(results.map((result) => result.ok).sort()).toEqual([false, true]);
  });
});
