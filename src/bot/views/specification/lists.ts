import type { Specification } from '../../../portal/schemas.ts';
import { distinct } from '../common/card-parts.ts';

// What a specification card lists, derived from the record: the portal repeats consignees
// across deliveries (its documents are merged by specDocuments, src/portal/documents.ts).

export const consigneeNames = (spec: Specification): string[] =>
  distinct(spec.DELIVERY.map((delivery) => delivery.CONSIGNEE_SHORT_NAME.trim()));

/** The production requests' SAP numbers (their NUMBER when the SAP one is empty), each once. */
export const relatedOrderNumbers = (spec: Specification): string[] =>
  distinct(spec.ORDER.map((order) => order.SAP_ID.trim() || order.NUMBER.trim()));
