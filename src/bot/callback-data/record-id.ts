import { contentKey } from '../../short-hash.ts';

/**
 * A short fingerprint of a record's SAP number, carried by the buttons that open it: the portal's
 * data moves, and a button must open the record it was made for or say it is gone, never show
 * whatever now stands at its place.
 */
export const recordId = (sapId: string): string => contentKey(sapId, 6);
