import type { Document, Specification } from '../../../portal/schemas.ts';
import { distinct } from '../common/card-parts.ts';

// What a specification card lists, derived from the record: the portal repeats consignees
// across deliveries and may send the same document in DOCUMENT and DOCUMENT_LIST.

export const consigneeNames = (spec: Specification): string[] =>
  distinct(spec.DELIVERY.map((delivery) => delivery.CONSIGNEE_SHORT_NAME.trim()));

/** The production requests' SAP numbers (their NUMBER when the SAP one is empty), each once. */
export const relatedOrderNumbers = (spec: Specification): string[] =>
  distinct(spec.ORDER.map((order) => order.SAP_ID.trim() || order.NUMBER.trim()));

const dayOf = (timestamp: string | null): string => (timestamp ?? '').trim().replace(/[ T]00:00(:00)?$/, '');

/** DOCUMENT and DOCUMENT_LIST as one list; the same ID, or the same number and date, is one document. */
export const specDocuments = (spec: Specification): Document[] => {
  const ids = new Set<number>();
  const numbers = new Set<string>();
  return [...spec.DOCUMENT, ...spec.DOCUMENT_LIST].filter((document) => {
    const number = document.NUMBER.trim();
    const numberKey = `${number}\u0000${dayOf(document.DATE)}`;
    if (ids.has(document.ID) || (number !== '' && numbers.has(numberKey))) return false;
    ids.add(document.ID);
    if (number !== '') numbers.add(numberKey);
    return true;
  });
};
