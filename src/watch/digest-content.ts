import type { Resource } from '../query.ts';
import type { DigestInput, Watch } from '../store/watch-store.ts';
import { changeSetSchema, readStored, snapshotSchema, type ChangeSet, type RecordChange, type RecordSnapshot, type Value } from './changes.ts';
import { itemName } from './diff.ts';
import { foldRecordChanges } from './fold.ts';

// What a chat's digest tells, from what the store keeps (no portal call): per watch the changes
// held since the last digest, folded into one per record, and its records as the last poll saw
// them; the positions of the specifications watched whose planned production date falls within
// the week; the counts the short line needs. Snoozed watches are left out until they wake.

/** Days of the plan: today and the six after. */
export const PLAN_DAYS = 7;

export type DigestWatch = {
  watch: Watch;
  /** The query's resource (from its snapshot or its query). */
  resource: Resource;
  /** What changed since the last digest, one per record. */
  changes: RecordChange[];
  /** Its records as the last poll saw them. */
  records: RecordSnapshot[];
};

/** A position planned for production on one of the week's days. */
export type PlannedPosition = { record: Pick<RecordSnapshot, 'sapId' | 'title'>; item: string; name?: string };

export type DigestContent = {
  /** The chat wants nothing (rather than one short line) on a day with nothing to tell. */
  quiet: boolean;
  /** Changes are those since this moment: the last digest, or when the digest was set. */
  since: number;
  /** The due time of a digest skipped since the last one. */
  missedAt?: number;
  watches: DigestWatch[];
  /** Watches left out while snoozed. */
  snoozed: number;
  /** Distinct records watched (snoozed watches' not counted). */
  records: number;
  /** Distinct records that changed. */
  changed: number;
  /** Today and the six days after (ISO days) that have planned positions, in order. */
  planned: Array<{ day: string; positions: PlannedPosition[] }>;
};

const DAY_MS = 86_400_000;

/** "2026-11-24" plus `days`. */
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const text = (value: Value | undefined): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The watch's held changes, oldest first, as change sets this version can read. */
const heldOf = (input: DigestInput, watchId: number): ChangeSet[] =>
  input.held.filter((held) => held.watchId === watchId).flatMap((held) => readStored(changeSetSchema, held.changes) ?? []);

/** The planned positions of the specifications among `records`, within [today, last], by day. */
const plannedOf = (records: Iterable<RecordSnapshot>, today: string): DigestContent['planned'] => {
  const last = addDays(today, PLAN_DAYS - 1);
  const byDay = new Map<string, PlannedPosition[]>();
  for (const record of records) {
    for (const [item, fields] of Object.entries(record.lists.positions ?? {})) {
      const day = text(fields.planned);
      if (day === undefined || day < today || day > last) continue;
      const name = itemName(fields);
      const positions = byDay.get(day) ?? [];
      positions.push({ record: { sapId: record.sapId, title: record.title }, item, ...(name !== undefined && { name }) });
      byDay.set(day, positions);
    }
  }
  return [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, positions]) => ({ day, positions }));
};

/** The digest's content at `today` (the ISO day in the chat's time zone). */
export const digestContent = (input: DigestInput, today: string): DigestContent => {
  const watches: DigestWatch[] = [];
  const records = new Map<string, RecordSnapshot>();
  const specifications = new Map<string, RecordSnapshot>();
  const changed = new Set<string>();
  let snoozed = 0;
  for (const { watch, snapshot } of input.watches) {
    if (watch.snoozedUntil !== undefined) {
      snoozed += 1;
      continue;
    }
    const stored = readStored(snapshotSchema, snapshot);
    const resource = stored?.resource ?? watch.target.query.resource;
    const current = Object.values(stored?.records ?? {});
    const changes = foldRecordChanges(heldOf(input, watch.id));
    watches.push({ watch, resource, changes, records: current });
    for (const record of current) {
      records.set(`${resource}:${record.sapId}`, record);
      if (resource === 'specification') specifications.set(record.sapId, record);
    }
    for (const change of changes) changed.add(`${resource}:${change.sapId}`);
  }
  const { digest } = input;
  return {
    quiet: digest.quiet,
    since: digest.lastSentAt ?? digest.createdAt,
    ...(digest.missedAt !== undefined && { missedAt: digest.missedAt }),
    watches,
    snoozed,
    records: records.size,
    changed: changed.size,
    planned: plannedOf(specifications.values(), today),
  };
};
