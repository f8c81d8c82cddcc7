import { createHash } from 'node:crypto';
import type { Order, Specification } from '../../portal/schemas.ts';

/**
 * A short fingerprint of a record's SAP number, carried by the buttons that open it: the portal's
 * data moves, and a button must open the record it was made for or say it is gone, never show
 * whatever now stands at its place.
 */
export const recordId = (record: Order | Specification): string =>
  createHash('sha256').update(String(record.SAP_ID)).digest('base64url').slice(0, 6);
