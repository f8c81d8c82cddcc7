import { describe, expect, test } from 'vitest';
import type { DigestInput, Watch } from '../../src/store/watch-store.ts';
import type { ChangeSet } from '../../src/watch/changes.ts';
import { addDays, digestContent } from '../../src/watch/digest-content.ts';
import { diffSnapshots } from '../../src/watch/diff.ts';
import { snapshotOf } from '../../src/watch/snapshot.ts';
import { makeOrder, makeSpecification, specificationPosition } from '../fixtures/portal-records.ts';

// A digest's content from what the store keeps: held changes folded per watch, records as the
// last poll saw them, the week's planned positions. No portal call is possible here: the input
// is all there is.

const TODAY = '2026-11-24';
const watchOf = (id: number, more: Partial<Watch> = {}): Watch => ({
  id,
  chatId: -100,
  targetKey: `k${id}`,
  target: { query: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' } },
  createdBy: 7,
  locale: 'ru',
  createdAt: 0,
  ...more,
});
const digest = { chatId: -100, minute: 540, quiet: false, locale: 'ru' as const, createdBy: 7, createdAt: 1_000, nextAt: 2_000 };

const specs = snapshotOf({
  resource: 'specification',
  items: [
    makeSpecification({
      POSITION: [
        specificationPosition(1, { MATERIAL_NAME: 'Труба 530х8', DATE_PLANNED_PRODUCTION: '2026-11-26 00:00:00' }),
        specificationPosition(2, { MATERIAL_NAME: 'Труба э/с 133х4,5', DATE_PLANNED_PRODUCTION: '2026-11-24 00:00:00' }),
        specificationPosition(3, { DATE_PLANNED_PRODUCTION: '2026-11-30 00:00:00' }),
        specificationPosition(4, { DATE_PLANNED_PRODUCTION: '2026-12-01 00:00:00' }),
        specificationPosition(5, { DATE_PLANNED_PRODUCTION: '2026-11-23 00:00:00' }),
        specificationPosition(6, { DATE_PLANNED_PRODUCTION: null }),
      ],
    }),
  ],
});
const before = snapshotOf({ resource: 'order', items: [makeOrder()] });
const after = snapshotOf({ resource: 'order', items: [makeOrder({ STATUS_TEXT: 'Отгружен', STATUS: 'shipped' })] });
const held = (changes: ChangeSet['changes'], foundAt: number): string => JSON.stringify({ resource: 'order', foundAt, changes });

describe("a digest's content", () => {
  test('today and the six days after: the planned positions of the specifications watched, by day, named by material', () => {
    const input: DigestInput = { digest, watches: [{ watch: watchOf(1), snapshot: JSON.stringify(specs) }], held: [] };
    const content = digestContent(input, TODAY);
    expect(content.planned).toEqual([
      { day: '2026-11-24', positions: [{ record: { sapId: '0040001234', title: expect.any(Object) }, item: '000020', name: 'Труба э/с 133х4,5' }] },
      { day: '2026-11-26', positions: [{ record: { sapId: '0040001234', title: expect.any(Object) }, item: '000010', name: 'Труба 530х8' }] },
      { day: '2026-11-30', positions: [{ record: { sapId: '0040001234', title: expect.any(Object) }, item: '000030', name: 'Труба 3' }] },
    ]);
    expect(content).toMatchObject({ since: 1_000, records: 1, changed: 0, snoozed: 0, quiet: false });
  });

  test('changes held for each watch, folded into one per record; the records as the last poll saw them', () => {
    const orderWatch = watchOf(2, { target: { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } } });
    const changes = diffSnapshots(before, after);
    const back = diffSnapshots(after, snapshotOf({ resource: 'order', items: [makeOrder({ STATUS_TEXT: 'Отгружен', STATUS: 'shipped', POSITION_SUM: 5 })] }));
    const input: DigestInput = {
      digest: { ...digest, lastSentAt: 1_500, missedAt: 1_900 },
      watches: [
        { watch: orderWatch, snapshot: JSON.stringify(after) },
        { watch: watchOf(3), snapshot: JSON.stringify(specs) },
        { watch: watchOf(4, { snoozedUntil: 9_999 }), snapshot: JSON.stringify(specs) },
        // Not polled yet, or a snapshot this version cannot read: no records, nothing breaks.
        { watch: watchOf(5) },
        { watch: watchOf(6), snapshot: '{"future":true}' },
      ],
      held: [
        { watchId: 2, changes: held(changes, 1_600) },
        { watchId: 2, changes: held(back, 1_700) },
        { watchId: 2, changes: 'damaged' },
      ],
    };
    const content = digestContent(input, TODAY);
    expect(content.since).toBe(1_500);
    expect(content.missedAt).toBe(1_900);
    expect(content.snoozed).toBe(1);
    expect(content.watches.map((watch) => watch.watch.id)).toEqual([2, 3, 5, 6]);
    expect(content.watches[0]?.changes).toEqual([
      {
        sapId: '0007300100',
        kind: 'changed',
        title: { sapId: '0007300100', date: '2026-03-15' },
        changes: [
          { kind: 'field', field: 'status', from: 'Производство', to: 'Отгружен' },
          { kind: 'field', field: 'statusCode', from: 'production', to: 'shipped' },
          { kind: 'field', field: 'sum', from: 1234567.89, to: 5 },
        ],
      },
    ]);
    expect(content.watches[0]?.records.map((record) => record.fields.status)).toEqual(['Отгружен']);
    expect(content).toMatchObject({ records: 2, changed: 1 });
  });

  test('days as the portal writes them', () => {
    expect([addDays('2026-11-24', 6), addDays('2026-12-28', 6), addDays('2028-02-27', 2)]).toEqual(['2026-11-30', '2027-01-03', '2028-02-29']);
  });
});
