import { describe, expect, it } from 'vitest';
import { describeStatusesContract } from './statuses-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeStatusesContract(sqliteBackend());
const postgres = postgresBackend();
describeStatusesContract(postgres);

describe('postgres: statuses shared by replicas', () => {
  const place = usePlace(postgres);

  it('learned through one replica, known to another; two learning the same code at once keep one row', async () => {
    const one = await place().open();
    const two = await place().open();
    const pair = { resource: 'order', field: 'STATUS', code: 'production', text: 'Производство' } as const;
    await Promise.all([one.statuses.learn([pair], 1_000), two.statuses.learn([pair], 1_000)]);
    expect(await two.statuses.all()).toEqual([pair]);
    expect(await one.statuses.all()).toEqual([pair]);
  });
});
