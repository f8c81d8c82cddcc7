import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLookups } from '../../src/bot/lookups.ts';
import type { PortalClient } from '../../src/portal/client.ts';
import type { Query } from '../../src/query.ts';

const unusedPortal: PortalClient = {
  listOrders: () => Promise.reject(new Error('no portal call expected')),
  listSpecifications: () => Promise.reject(new Error('no portal call expected')),
};

/** A store holding whatever an older version, or a tampered file, left under each key. */
const lookupsWith = (stored: Record<string, Query>) =>
  createLookups({ portal: unusedPortal, queries: { save: () => 'k', load: (key) => stored[key] }, logger: pino({ level: 'silent' }) });

describe('resolving the query behind a button', () => {
  it('checks a stored query as a typed command is checked', async () => {
    const lookups = lookupsWith({
      good: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' },
      date: { resource: 'order', filter: 'DATE_ORDER', value: 'notadate' },
      blank: { resource: 'order', filter: 'SAP_ID', value: '   ' },
      long: { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'т'.repeat(101) },
    });
    expect(await lookups.resolve({ key: 'good' })).toEqual({ resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' });
    expect(await lookups.resolve({ key: 'date' })).toBeUndefined();
    expect(await lookups.resolve({ key: 'blank' })).toBeUndefined();
    expect(await lookups.resolve({ key: 'long' })).toBeUndefined();
    expect(await lookups.resolve({ key: 'missing' })).toBeUndefined();
  });
});

describe('a stored query read again', () => {
  it('is read from the store once per key for ten minutes; a key saved here is not read at all', async () => {
    const clock = { ms: Date.parse('2026-11-23T10:00:00Z') };
    const loads: string[] = [];
    const stored: Record<string, Query> = { good: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' } };
    const lookups = createLookups({
      portal: unusedPortal,
      queries: { save: (query) => `key-${query.value}`, load: (key) => (loads.push(key), stored[key]) },
      logger: pino({ level: 'silent' }),
      now: () => clock.ms,
    });
    for (let press = 0; press < 3; press++) expect(await lookups.resolve({ key: 'good' })).toEqual(stored.good);
    // What the store does not have, or holds no longer valid, is asked each time: it may come.
    await lookups.resolve({ key: 'missing' });
    await lookups.resolve({ key: 'missing' });
    expect(loads).toEqual(['good', 'missing', 'missing']);
    clock.ms += 10 * 60_000;
    await lookups.resolve({ key: 'good' });
    expect(loads).toEqual(['good', 'missing', 'missing', 'good']);
    const key = await lookups.keyFor({ resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба' });
    expect(await lookups.resolve({ key })).toEqual({ resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба' });
    expect(loads).toHaveLength(4);
  });
});

describe('the reference a button carries', () => {
  const counting = () => {
    const saves: Query[] = [];
    const clock = { ms: Date.parse('2026-11-23T10:00:00Z') };
    const lookups = createLookups({
      portal: unusedPortal,
      queries: { save: (query) => (saves.push(query), `key-${query.value}`), load: () => undefined },
      logger: pino({ level: 'silent' }),
      now: () => clock.ms,
    });
    return { lookups, saves, clock };
  };
  const long: Query = { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' };

  it('carries a short ASCII query itself, and stores none', async () => {
    const { lookups, saves } = counting();
    expect(await lookups.refFor({ resource: 'order', filter: 'SAP_ID', value: '0007300100' })).toEqual({ query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } });
    expect(saves).toEqual([]);
  });

  it('stores a query once and reuses its key for ten minutes, then stores it again', async () => {
    const { lookups, saves, clock } = counting();
    expect(await lookups.refFor(long)).toEqual({ key: 'key-ДП-77/2026' });
    expect(await lookups.refFor({ ...long })).toEqual({ key: 'key-ДП-77/2026' });
    expect(saves).toHaveLength(1);
    // Another query is its own.
    await lookups.refFor({ ...long, value: 'ДП-78/2026' });
    expect(saves).toHaveLength(2);
    clock.ms += 10 * 60_000;
    expect(await lookups.refFor(long)).toEqual({ key: 'key-ДП-77/2026' });
    expect(saves).toHaveLength(3);
  });
});
