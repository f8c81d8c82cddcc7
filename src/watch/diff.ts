import type { FieldChange, RecordChange, RecordSnapshot, Snapshot, Value } from './changes.ts';

// Two polls of one watched query compared. Snapshots are already normalised, so plain equality
// is the right test: a floating-point artefact was rounded away when the snapshot was taken.

/** The keys of `after` in its order, then those only `before` has: the order a message reads in. */
const keysOf = (before: object, after: object): string[] => [...new Set([...Object.keys(after), ...Object.keys(before)])];

const valueAt = (values: Record<string, Value>, key: string): Value => (Object.hasOwn(values, key) ? (values[key] ?? null) : null);

const fieldChanges = (before: Record<string, Value>, after: Record<string, Value>): Array<{ field: string; from: Value; to: Value }> =>
  keysOf(before, after)
    .map((field) => ({ field, from: valueAt(before, field), to: valueAt(after, field) }))
    .filter(({ from, to }) => from !== to);

type Items = RecordSnapshot['lists'][string];

/** What an item is, to name it beside its key: a position's material (its name, else its code). */
export const itemName = (fields: Record<string, Value>): string | undefined => {
  const name = valueAt(fields, 'material') ?? valueAt(fields, 'materialCode');
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
};

/** One list: items present in both with their changed fields, and added ones, in `after`'s order; then removed ones. */
const listChanges = (list: string, before: Items, after: Items): FieldChange[] => {
  const changes: FieldChange[] = [];
  for (const [item, fields] of Object.entries(after)) {
    const old = Object.hasOwn(before, item) ? before[item] : undefined;
    if (old === undefined) {
      changes.push({ kind: 'itemAdded', list, item, fields });
      continue;
    }
    const name = itemName(fields) ?? itemName(old);
    // A change of the material itself names both: the item needs no name beside it.
    for (const change of fieldChanges(old, fields)) changes.push({ kind: 'itemField', list, item, ...change, ...(name !== undefined && change.field !== 'material' && { name }) });
  }
  for (const [item, fields] of Object.entries(before)) {
    if (!Object.hasOwn(after, item)) changes.push({ kind: 'itemRemoved', list, item, fields });
  }
  return changes;
};

/** What changed in a record that is in both snapshots: its fields first, then its lists. */
export const diffRecords = (before: RecordSnapshot, after: RecordSnapshot): FieldChange[] => [
  ...fieldChanges(before.fields, after.fields).map((change): FieldChange => ({ kind: 'field', ...change })),
  ...keysOf(before.lists, after.lists).flatMap((list) =>
    listChanges(list, Object.hasOwn(before.lists, list) ? (before.lists[list] ?? {}) : {}, Object.hasOwn(after.lists, list) ? (after.lists[list] ?? {}) : {}),
  ),
];

/**
 * The records that entered the query, left it, or changed, in the order of `after` (the portal's
 * order), then the ones that left in the order of `before`. Equal snapshots give [].
 */
export const diffSnapshots = (before: Snapshot, after: Snapshot): RecordChange[] => {
  const changes: RecordChange[] = [];
  for (const [sapId, record] of Object.entries(after.records)) {
    const old = Object.hasOwn(before.records, sapId) ? before.records[sapId] : undefined;
    if (old === undefined) {
      changes.push({ sapId, kind: 'entered', title: record.title, changes: [] });
      continue;
    }
    const found = diffRecords(old, record);
    if (found.length > 0) changes.push({ sapId, kind: 'changed', title: record.title, changes: found });
  }
  for (const [sapId, record] of Object.entries(before.records)) {
    if (!Object.hasOwn(after.records, sapId)) changes.push({ sapId, kind: 'left', title: record.title, changes: [] });
  }
  return changes;
};
