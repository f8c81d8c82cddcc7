import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { bucketOf, createUsage, daysBefore } from '../../src/store/usage.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { StoreUnavailableError } from '../../src/store/errors.ts';
import type { UsageBatch, UsageStore } from '../../src/store/usage-store.ts';

// /stats's counters kept in memory and added to the store in batches (src/store/usage.ts).

const quiet = pino({ level: 'silent' });
/** 23:59 on 22 November in Moscow (UTC+3), a minute before its 23rd. */
const BEFORE_MIDNIGHT = Date.parse('2026-11-22T20:59:00Z');

describe('usage counters', () => {
  it('count on the calendar days of TIME_ZONE, and reach the store only when flushed', async () => {
    const store = openSqliteStore({ dataDir: ':memory:' });
    let now = BEFORE_MIDNIGHT;
    const usage = createUsage({ timeZone: 'Europe/Moscow', now: () => now, logger: quiet });
    usage.connect(store.usage, 60_000);
    usage.lookup('command', 'order', 'SAP_ID');
    usage.seen(42, -100);
    now += 60_000;
    usage.lookup('button', 'order', 'SAP_ID');
    usage.portalCall(120, 'ok');
    usage.portalCall(30_001, 'PORTAL_TIMEOUT');
    usage.seen(42);
    expect(store.usage.counts('2026-01-01')).toEqual([]);
    await usage.flush();
    expect(store.usage.counts('2026-01-01')).toEqual([
      { day: '2026-11-22', name: 'lookup.filter', key: 'order.SAP_ID', value: 1 },
      { day: '2026-11-22', name: 'lookup.resource', key: 'order', value: 1 },
      { day: '2026-11-22', name: 'lookup.via', key: 'command', value: 1 },
      { day: '2026-11-23', name: 'lookup.filter', key: 'order.SAP_ID', value: 1 },
      { day: '2026-11-23', name: 'lookup.resource', key: 'order', value: 1 },
      { day: '2026-11-23', name: 'lookup.via', key: 'button', value: 1 },
      { day: '2026-11-23', name: 'portal.ms', key: '150', value: 1 },
      { day: '2026-11-23', name: 'portal.ms', key: '60000', value: 1 },
      { day: '2026-11-23', name: 'portal.outcome', key: 'PORTAL_TIMEOUT', value: 1 },
      { day: '2026-11-23', name: 'portal.outcome', key: 'ok', value: 1 },
    ]);
    expect([store.usage.activeUsers('2026-11-22'), store.usage.activeUsers('2026-11-23')]).toEqual([1, 1]);
    expect(store.usage.lastSeen([42, -100])).toEqual(new Map([[42, now], [-100, BEFORE_MIDNIGHT]]));
    await usage.stop();
    store.close();
  });

  it('keeps a batch the store refused and adds it with the next one; the last flush at stop', async () => {
    const added: UsageBatch[] = [];
    let down = true;
    const store: UsageStore = {
      add: (batch) => {
        if (down) throw new StoreUnavailableError('test', 'down');
        added.push(batch);
      },
      counts: () => [],
      activeUsers: () => 0,
      lastSeen: () => new Map(),
      prune: () => {},
    };
    const usage = createUsage({ timeZone: 'Europe/Moscow', now: () => BEFORE_MIDNIGHT, logger: quiet });
    usage.connect(store, 60_000);
    usage.exported('sent');
    await expect(usage.flush()).rejects.toBeInstanceOf(StoreUnavailableError);
    usage.exported('sent');
    usage.notification('sent');
    down = false;
    await usage.stop();
    expect(added.map((batch) => batch.counts)).toEqual([
      [
        { day: '2026-11-22', name: 'export', key: 'sent', value: 2 },
        { day: '2026-11-22', name: 'notification', key: 'sent', value: 1 },
      ],
    ]);
  });

  it('forgets the days past 90 when it flushes, at most once an hour', async () => {
    const pruned: string[] = [];
    let now = BEFORE_MIDNIGHT;
    const usage = createUsage({ timeZone: 'Europe/Moscow', now: () => now, logger: quiet });
    usage.connect({ add: () => {}, counts: () => [], activeUsers: () => 0, lastSeen: () => new Map(), prune: (day) => void pruned.push(day) }, 60_000);
    await usage.flush();
    now += 59 * 60_000;
    await usage.flush();
    now += 60_000;
    await usage.flush();
    await usage.stop();
    // An hour after 23:59 it is the next day: the cutoff moves with it.
    expect(pruned).toEqual(['2026-08-24', '2026-08-25']);
  });

  it('buckets answer times and counts days back on the calendar', () => {
    expect([bucketOf(0), bucketOf(10), bucketOf(11), bucketOf(60_000), bucketOf(60_001)]).toEqual(['10', '10', '25', '60000', 'inf']);
    expect([daysBefore('2026-03-01', 1), daysBefore('2026-11-23', 29), daysBefore('2026-01-01', 0)]).toEqual(['2026-02-28', '2026-10-25', '2026-01-01']);
  });
});
