import { describe, expect, it } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator } from '../../../src/i18n.ts';
import { percentileOf, renderStats } from '../../../src/bot/views/stats.ts';
import type { UsageCount } from '../../../src/store/usage-store.ts';

const row = (day: string, name: string, key: string, value: number): UsageCount => ({ day, name, key, value });
const times = (day: string, buckets: Record<string, number>) => Object.entries(buckets).map(([key, value]) => row(day, 'portal.ms', key, value));

describe('percentileOf', () => {
  it('reads p50 and p95 from the day histograms, linearly within a bucket, over the days from the first given', () => {
    // 100 calls: 50 within 100 ms, 40 within 150–200 ms, 10 within 2–3 s.
    const counts = [...times('2026-11-22', { '100': 50 }), ...times('2026-11-23', { '200': 40, '3000': 10 })];
    expect(percentileOf(counts, '2026-11-22', 0.5)).toBe(100);
    expect(percentileOf(counts, '2026-11-22', 0.95)).toBe(2500);
    expect(percentileOf(counts, '2026-11-23', 0.5)).toBe(181);
    expect(percentileOf(counts, '2026-11-24', 0.5)).toBeUndefined();
    expect(percentileOf(times('2026-11-23', { inf: 3, '10': 1 }), '2026-11-23', 0.5)).toBe('over');
  });
});

describe('renderStats', () => {
  const periods = [
    { from: '2026-11-23', activeUsers: 3 },
    { from: '2026-11-17', activeUsers: 12 },
    { from: '2026-10-25', activeUsers: 40 },
  ];
  const counts = [
    row('2026-11-01', 'lookup.via', 'command', 900),
    row('2026-11-20', 'lookup.via', 'button', 30),
    row('2026-11-23', 'lookup.via', 'command', 5),
    row('2026-11-23', 'lookup.via', 'pasted', 2),
    row('2026-11-23', 'lookup.via', 'carrier-pigeon', 1),
    row('2026-11-23', 'lookup.resource', 'order', 8),
    row('2026-11-01', 'lookup.resource', 'specification', 930),
    row('2026-11-01', 'lookup.filter', 'specification.CONTRACT_NUMBER', 930),
    row('2026-11-23', 'lookup.filter', 'order.SAP_ID', 7),
    row('2026-11-23', 'lookup.filter', 'order.NEW_FILTER', 1),
    row('2026-11-23', 'export', 'sent', 2),
    row('2026-11-23', 'export', 'failed', 1),
    row('2026-11-23', 'portal.outcome', 'ok', 9),
    row('2026-11-23', 'portal.outcome', 'PORTAL_TIMEOUT', 1),
    ...times('2026-11-23', { '100': 10 }),
  ];

  it('en: three columns, each known way of asking named, a newer one as kept, values never shown', () => {
    expect(renderStats({ periods, counts, circuit: 'open' }, createTranslator('en'), createFormatter('en')).split('\n')).toEqual([
      '📊 <b>Usage</b>: today · 7 days · 30 days',
      'Active users: 3 · 12 · 40',
      'Lookups: 8 · 38 · 938',
      '  by command: 5 · 5 · 905',
      '  by button: 0 · 30 · 30',
      '  pasted: 2 · 2 · 2',
      '  carrier-pigeon: 1 · 1 · 1',
      '  orders: 8 · 8 · 8',
      '  specifications: 0 · 0 · 930',
      'Excel exports: 2 · 2 · 2',
      'Watches added: 0 · 0 · 0',
      'Notifications sent: 0 · 0 · 0',
      '',
      '<b>Portal</b>',
      // Ten calls in the bucket from 75 to 100 ms.
      '  answer time p50: 88 ms · 88 ms · 88 ms',
      '  answer time p95: 99 ms · 99 ms · 99 ms',
      '  failures: 1 · 1 · 1 (of 10 · 10 · 10 calls)',
      '  circuit opened: 0 · 0 · 0',
      '  circuit breaker: open (calls fail at once)',
      '',
      '<b>Top filters</b> (30 days, values not shown):',
      '  1. specifications, contract no.: 930',
      '  2. orders, SAP no.: 7',
      '  3. order, NEW_FILTER: 1',
    ]);
  });

  it('ru: numbers as Russians write them, nothing yet said as such', () => {
    const text = renderStats({ periods, counts: [row('2026-11-23', 'lookup.via', 'command', 1234)] }, createTranslator('ru'), createFormatter('ru'));
    const n = createFormatter('ru').number(1234);
    expect(n).toMatch(/^1\s234$/);
    expect(text).toContain(`Поисков: ${n} · ${n} · ${n}`);
    expect(text).toContain('  время ответа p50: — · — · —');
    expect(text).toContain('<b>Частые фильтры</b> (30 дней, без значений):\n  пока нет');
    expect(text).not.toContain('предохранитель:');
  });
});
