import type { ChangeSet, FieldChange, RecordChange } from './changes.ts';

// Several polls' changes of one watched query, told as one (a snooze's end, a digest): per record
// the net change from before the first to after the last. A field that came back to where it was
// is no change; a record that entered and left again is none either; one that left and came back
// is a changed record.

/** Where a change lands when folding: the same field of the same item is one change. */
const slotOf = (change: FieldChange): string => {
  switch (change.kind) {
    case 'field':
      return `f\u0000${change.field}`;
    case 'itemField':
      return `i\u0000${change.list}\u0000${change.item}\u0000${change.field}`;
    case 'itemAdded':
    case 'itemRemoved':
      return `a\u0000${change.list}\u0000${change.item}`;
  }
};

type Folding = { kind: RecordChange['kind']; title: RecordChange['title']; changes: Map<string, FieldChange> };

const merge = (into: Map<string, FieldChange>, change: FieldChange): void => {
  const slot = slotOf(change);
  const before = into.get(slot);
  if (before === undefined) {
    into.set(slot, change);
    return;
  }
  if ((before.kind === 'field' || before.kind === 'itemField') && before.kind === change.kind) {
    const merged = { ...change, from: before.from };
    if (merged.from === merged.to) into.delete(slot);
    else into.set(slot, merged);
    return;
  }
  // An item added then removed (or removed then added) is, to one line per record, no change.
  if (before.kind !== change.kind && (change.kind === 'itemAdded' || change.kind === 'itemRemoved')) {
    into.delete(slot);
    return;
  }
  into.set(slot, change);
};

/** The records of `sets` (oldest first) with their net changes, in the order each was first seen. */
export const foldRecordChanges = (sets: readonly ChangeSet[]): RecordChange[] => {
  const records = new Map<string, Folding>();
  for (const set of sets) {
    for (const change of set.changes) {
      const seen = records.get(change.sapId);
      if (seen === undefined) {
        records.set(change.sapId, { kind: change.kind, title: change.title, changes: new Map(change.changes.map((item) => [slotOf(item), item])) });
        continue;
      }
      seen.title = change.title;
      if (change.kind === 'left') {
        if (seen.kind === 'entered') records.delete(change.sapId);
        else seen.kind = 'left';
      } else if (change.kind === 'entered') {
        seen.kind = seen.kind === 'left' ? 'changed' : 'entered';
      } else {
        for (const item of change.changes) merge(seen.changes, item);
      }
    }
  }
  return [...records].flatMap(([sapId, record]): RecordChange[] => {
    // Entered and left need no details; a changed record with none left changed nothing.
    const changes = record.kind === 'changed' ? [...record.changes.values()] : [];
    return record.kind === 'changed' && changes.length === 0 ? [] : [{ sapId, kind: record.kind, title: record.title, changes }];
  });
};

/**
 * Change sets of one query (oldest first) as one, told at `at` of what changed since the first
 * was found; undefined when nothing is left to tell.
 */
export const foldChangeSets = (sets: readonly ChangeSet[], at: number): ChangeSet | undefined => {
  const [first] = sets;
  if (first === undefined) return undefined;
  const changes = foldRecordChanges(sets);
  if (changes.length === 0) return undefined;
  return { resource: first.resource, changes, foundAt: at, since: Math.min(...sets.map((set) => set.foundAt)) };
};
