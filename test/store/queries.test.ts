import { describe, expect, it } from 'vitest';
import type { Query } from '../../src/query.ts';
import { describeQueriesContract } from './queries-contract.ts';
import { postgresBackend, sqliteBackend, usePlace } from './store-backends.ts';

describeQueriesContract(sqliteBackend());
const postgres = postgresBackend();
describeQueriesContract(postgres);

describe('postgres: queries shared by replicas', () => {
  const place = usePlace(postgres);

  it('a button made by one replica works on another', async () => {
    const one = await place().open();
    const two = await place().open();
    const query: Query = { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба 530×8 сталь 17Г1С' };
    const key = await one.queries.save(query);
    expect(await two.queries.load(key)).toEqual(query);
    expect(await two.queries.save(query)).toBe(key);
  });
});
