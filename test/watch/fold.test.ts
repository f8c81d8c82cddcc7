import { describe, expect, test } from 'vitest';
import type { ChangeSet, RecordChange } from '../../src/watch/changes.ts';
import { foldChangeSets, foldRecordChanges } from '../../src/watch/fold.ts';
import { foldHeld } from '../../src/watch/snoozes.ts';
import { statusChangesOf } from '../../src/watch/status-only.ts';

const set = (changes: RecordChange[], foundAt = 0): ChangeSet => ({ resource: 'order', foundAt, changes });
const status = (sapId: string, from: string, to: string): RecordChange => ({
  sapId,
  kind: 'changed',
  title: { sapId, date: '2026-03-15' },
  changes: [{ kind: 'field', field: 'status', from, to }],
});
const sum = (sapId: string, from: number, to: number): RecordChange => ({ sapId, kind: 'changed', title: { sapId }, changes: [{ kind: 'field', field: 'sum', from, to }] });
const entered = (sapId: string): RecordChange => ({ sapId, kind: 'entered', title: { sapId }, changes: [] });
const left = (sapId: string): RecordChange => ({ sapId, kind: 'left', title: { sapId }, changes: [] });

describe('folding several polls into one change per record', () => {
  test('a field changed twice reads from the first value to the last; one that came back is no change', () => {
    expect(foldRecordChanges([set([status('1', 'A', 'B'), sum('2', 1, 2)]), set([status('1', 'B', 'C'), sum('2', 2, 1)])])).toEqual([
      { sapId: '1', kind: 'changed', title: { sapId: '1', date: '2026-03-15' }, changes: [{ kind: 'field', field: 'status', from: 'A', to: 'C' }] },
    ]);
  });

  test('a record that entered and left is none; one that left and came back changed; entered stays entered', () => {
    expect(foldRecordChanges([set([entered('1'), left('2'), entered('3')]), set([left('1'), entered('2'), status('3', 'A', 'B')])])).toEqual([
      { sapId: '3', kind: 'entered', title: { sapId: '3', date: '2026-03-15' }, changes: [] },
    ]);
    const cameBack = foldRecordChanges([set([left('2')]), set([entered('2')]), set([sum('2', 1, 5)])]);
    expect(cameBack).toEqual([{ sapId: '2', kind: 'changed', title: { sapId: '2' }, changes: [{ kind: 'field', field: 'sum', from: 1, to: 5 }] }]);
    expect(foldRecordChanges([set([status('1', 'A', 'B')]), set([left('1')])])).toEqual([{ sapId: '1', kind: 'left', title: { sapId: '1' }, changes: [] }]);
  });

  test('a position added then removed is no change; its field changes fold like the record’s', () => {
    const position = (kind: 'itemAdded' | 'itemRemoved'): RecordChange => ({ sapId: '1', kind: 'changed', title: {}, changes: [{ kind, list: 'positions', item: '000010', fields: {} }] });
    const quantity = (from: number, to: number): RecordChange => ({
      sapId: '1',
      kind: 'changed',
      title: {},
      changes: [{ kind: 'itemField', list: 'positions', item: '000020', field: 'quantity', from, to, name: 'Труба 530х8' }],
    });
    expect(foldRecordChanges([set([position('itemAdded')]), set([position('itemRemoved')])])).toEqual([]);
    expect(foldRecordChanges([set([quantity(1, 2)]), set([quantity(2, 3)])])[0]?.changes).toEqual([
      { kind: 'itemField', list: 'positions', item: '000020', field: 'quantity', from: 1, to: 3, name: 'Труба 530х8' },
    ]);
  });

  test('a folded change set says since when; nothing left to tell is nothing', () => {
    expect(foldChangeSets([set([status('1', 'A', 'B')], 10), set([status('1', 'B', 'C')], 20)], 99)).toEqual({
      resource: 'order',
      foundAt: 99,
      since: 10,
      changes: [{ sapId: '1', kind: 'changed', title: { sapId: '1', date: '2026-03-15' }, changes: [{ kind: 'field', field: 'status', from: 'A', to: 'C' }] }],
    });
    expect(foldChangeSets([set([status('1', 'A', 'B')]), set([status('1', 'B', 'A')])], 0)).toBeUndefined();
    expect(foldChangeSets([], 0)).toBeUndefined();
  });

  test('held JSON: the sets this version reads, since the first found, told when folded; unreadable ones skipped', () => {
    const folded = foldHeld([JSON.stringify(set([status('1', 'A', 'B')], 5)), 'not json', '{"resource":"order"}', JSON.stringify(set([status('1', 'B', 'C')], 9))], 50);
    expect(JSON.parse(folded ?? '')).toMatchObject({ since: 5, foundAt: 50, changes: [{ sapId: '1', changes: [{ from: 'A', to: 'C' }] }] });
    expect(foldHeld(['garbage'], 50)).toBeUndefined();
  });
});

describe('what a status-only watch is told', () => {
  test('a change of status, status code or type, and records that enter or leave; nothing else', () => {
    const mixed: RecordChange = {
      sapId: '1',
      kind: 'changed',
      title: {},
      changes: [
        { kind: 'field', field: 'sum', from: 1, to: 2 },
        { kind: 'field', field: 'statusType', from: 'ZSD_DOG', to: 'ZSDZNM' },
        { kind: 'itemAdded', list: 'documents', item: '5', fields: {} },
      ],
    };
    expect(statusChangesOf([mixed, sum('2', 1, 2), entered('3'), left('4'), status('5', 'A', 'B')])).toEqual([
      { ...mixed, changes: [{ kind: 'field', field: 'statusType', from: 'ZSD_DOG', to: 'ZSDZNM' }] },
      entered('3'),
      left('4'),
      status('5', 'A', 'B'),
    ]);
    expect(statusChangesOf([sum('2', 1, 2)])).toEqual([]);
  });
});
