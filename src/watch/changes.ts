import { z } from 'zod';

// What a watch compares and what it tells: the records of a watched query reduced to the fields a
// sales manager cares about (snapshots), and the differences between two snapshots (changes).
// Values are kept raw (rounded numbers, ISO dates, codes); views format them per locale.

/** A compared value: text, a rounded number, an ISO date "YYYY-MM-DD", or nothing. */
export const valueSchema = z.union([z.string(), z.number(), z.null()]);
export type Value = z.infer<typeof valueSchema>;

/** One record as the watch keeps it: its title facts, its fields, its lists keyed by item. */
export const recordSnapshotSchema = z.object({
  /** SAP number: the record's identity across polls. */
  sapId: z.string(),
  /** What the notification's header names: order date / specification number and contract. */
  title: z.record(z.string(), valueSchema),
  /** Scalar fields compared one by one (status, amounts, dates…). */
  fields: z.record(z.string(), valueSchema),
  /**
   * Lists whose items are added, removed or changed: list name → item key → the item's fields
   * (positions by their SAP position number, documents by id, consignees by name, requests by SAP no.).
   */
  lists: z.record(z.string(), z.record(z.string(), z.record(z.string(), valueSchema))),
});
export type RecordSnapshot = z.infer<typeof recordSnapshotSchema>;

/** A watched query's records after a poll, by SAP number; stored as JSON. */
export const snapshotSchema = z.object({
  resource: z.enum(['order', 'specification']),
  records: z.record(z.string(), recordSnapshotSchema),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** One difference in one record. */
export const fieldChangeSchema = z.discriminatedUnion('kind', [
  /** A scalar field changed: `field` names it (status, sum, …). */
  z.object({ kind: z.literal('field'), field: z.string(), from: valueSchema, to: valueSchema }),
  /** An item of a list appeared or went away: `list` names the list, `item` its key, `fields` what it holds. */
  z.object({ kind: z.enum(['itemAdded', 'itemRemoved']), list: z.string(), item: z.string(), fields: z.record(z.string(), valueSchema) }),
  /**
   * A field of a list item changed (a position's quantity, its planned production date…); `name`
   * is what the item is (a position's material), absent in change sets stored before it was kept.
   */
  z.object({ kind: z.literal('itemField'), list: z.string(), item: z.string(), field: z.string(), from: valueSchema, to: valueSchema, name: z.string().optional() }),
]);
export type FieldChange = z.infer<typeof fieldChangeSchema>;

/** What happened to one record of a watched query. */
export const recordChangeSchema = z.object({
  sapId: z.string(),
  /** entered: now matches the query; left: no longer does; changed: still matches, with `changes`. */
  kind: z.enum(['entered', 'left', 'changed']),
  title: z.record(z.string(), valueSchema),
  changes: z.array(fieldChangeSchema),
});
export type RecordChange = z.infer<typeof recordChangeSchema>;

/** A notification waiting to be sent: the query's changes found by one poll; stored as JSON. */
export const changeSetSchema = z.object({
  resource: z.enum(['order', 'specification']),
  changes: z.array(recordChangeSchema),
  /** When the poll found them (ms since the epoch; folded ones: when they were folded), for the delivery-latency histogram. */
  foundAt: z.number(),
  /** Several polls' changes folded into one line per record (a snooze's end): those since this moment. */
  since: z.number().optional(),
});
export type ChangeSet = z.infer<typeof changeSetSchema>;

/**
 * A snapshot or a change set read back from the store; undefined when it is not JSON or not of
 * this version's shape (written by a newer version, or damaged): the caller starts afresh.
 */
export const readStored = <S extends z.ZodType>(schema: S, json: string | undefined): z.infer<S> | undefined => {
  if (json === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};
