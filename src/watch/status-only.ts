import type { RecordChange } from './changes.ts';

// What a status-only watch is told: a record that starts or stops matching its query, and a
// change of status (its text or code) or of status type. Every other change is left out.

const STATUS_FIELDS = new Set(['status', 'statusCode', 'statusType']);

export const statusChangesOf = (changes: readonly RecordChange[]): RecordChange[] =>
  changes.flatMap((change): RecordChange[] => {
    if (change.kind !== 'changed') return [change];
    const kept = change.changes.filter((item) => item.kind === 'field' && STATUS_FIELDS.has(item.field));
    return kept.length === 0 ? [] : [{ ...change, changes: kept }];
  });
