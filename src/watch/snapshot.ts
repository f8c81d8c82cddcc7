import { specDocuments } from '../portal/documents.ts';
import type { Order, Specification } from '../portal/schemas.ts';
import type { RecordSnapshot, Snapshot, Value } from './changes.ts';
import type { AllRecords } from '../portal/fetch-all.ts';
import { day, money, metres, quantity, text, tonnes } from './normalize.ts';

// What a watch keeps of each record: only what a sales manager cares about, normalised (see
// normalize.ts). Field and list names are the contract between the diff and the change views.

export type SnapshotRecords =
  | { resource: 'order'; items: readonly Order[] }
  | { resource: 'specification'; items: readonly Specification[] };

type Items = Record<string, Record<string, Value>>;

/** Items by key, the first one kept when the portal repeats a key. */
const keyed = <T>(items: readonly T[], keyOf: (item: T) => string | null, fieldsOf: (item: T) => Record<string, Value>): Items => {
  const result: Items = {};
  for (const item of items) {
    const key = keyOf(item);
    if (key !== null && !Object.hasOwn(result, key)) result[key] = fieldsOf(item);
  }
  return result;
};

/** A position's SAP number; the portal's row id when SAP has not numbered it yet. */
const positionKey = (sapNumber: string, id: number): string => sapNumber.trim() || String(id);

export const orderSnapshot = (order: Order): RecordSnapshot => ({
  sapId: order.SAP_ID.trim(),
  title: { sapId: order.SAP_ID.trim(), date: day(order.DATE_ORDER) },
  fields: {
    // What people read (the text, else the code), and the code: a new code under the same text is
    // still a new status.
    status: text(order.STATUS_TEXT) ?? text(order.STATUS),
    statusCode: text(order.STATUS),
    sum: money(order.POSITION_SUM),
    prepayment: money(order.PREPAYMENT),
    weight: tonnes(order.POSITION_WEIGHT_TONN),
    metres: metres(order.POSITION_METERS),
    pieces: quantity(order.POSITION_PIECES),
  },
  lists: {
    positions: keyed(
      order.POSITION,
      (position) => positionKey(position.ORDER_POSITION_SAP_ID, position.ID),
      (position) => ({
        material: text(position.MATERIAL_NAME),
        materialCode: text(position.MATERIAL_SAP_ID),
        quantity: quantity(position.QUANTITY),
        measure: text(position.MEASURE),
        price: money(position.PRICE),
        currency: text(position.CURRENCY),
      }),
    ),
  },
});

/** The documents as the card shows them (specDocuments), by ID. */
const documentsOf = (spec: Specification): Items =>
  keyed(specDocuments(spec), (document) => String(document.ID), (document) => ({ number: text(document.NUMBER), date: day(document.DATE) }));

/** Consignees by name: white space and letter case do not make a new one; the first spelling is shown. */
const consigneesOf = (spec: Specification): Items =>
  keyed(
    spec.DELIVERY,
    (delivery) => text(delivery.CONSIGNEE_SHORT_NAME.replace(/\s+/g, ' '))?.toLowerCase() ?? null,
    (delivery) => ({ name: text(delivery.CONSIGNEE_SHORT_NAME.replace(/\s+/g, ' ')) }),
  );

export const specSnapshot = (spec: Specification): RecordSnapshot => ({
  sapId: spec.SAP_ID.trim(),
  title: { number: text(spec.SPECIFICATION_NUMBER), contract: text(spec.CONTRACT_NUMBER), contractDate: day(spec.CONTRACT_DATE) },
  fields: {
    status: text(spec.STATUS),
    statusType: text(spec.STATUS_TYPE),
    validFrom: day(spec.DATE_ACTIVE_FROM),
    validTo: day(spec.DATE_ACTIVE_TO),
    plannedWeight: tonnes(spec.PLANNED_WEIGHT_TONN),
    prepayment: money(spec.PREPAYMENT),
  },
  lists: {
    positions: keyed(
      spec.POSITION,
      (position) => positionKey(position.SPECIFICATION_POSITION_SAP_ID, position.ID),
      (position) => ({
        material: text(position.MATERIAL_NAME),
        materialCode: text(position.MATERIAL_SAP_ID),
        planned: day(position.DATE_PLANNED_PRODUCTION),
      }),
    ),
    documents: documentsOf(spec),
    consignees: consigneesOf(spec),
    requests: keyed(
      spec.ORDER,
      (request) => text(request.SAP_ID) ?? text(request.NUMBER),
      (request) => ({ number: text(request.NUMBER), date: day(request.DATE_ORDER) }),
    ),
  },
});

/** Every record of a watched query by its SAP number (the first one kept if the portal repeats it). */
export const snapshotOf = (records: AllRecords | SnapshotRecords): Snapshot => {
  const snapshots: RecordSnapshot[] =
    records.resource === 'order' ? records.items.map(orderSnapshot) : records.items.map(specSnapshot);
  const byId: Snapshot['records'] = {};
  for (const snapshot of snapshots) if (!Object.hasOwn(byId, snapshot.sapId)) byId[snapshot.sapId] = snapshot;
  return { resource: records.resource, records: byId };
};

/** The records of a watch: all of its query's, or for a watch of one record only that one. */
export const watchedRecords = (all: AllRecords, sapId: string | undefined): AllRecords => {
  if (sapId === undefined) return all;
  return all.resource === 'order'
    ? { ...all, items: all.items.filter((item) => item.SAP_ID === sapId) }
    : { ...all, items: all.items.filter((item) => item.SAP_ID === sapId) };
};
