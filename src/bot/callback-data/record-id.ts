import { remembered } from '../../remembered.ts';
import { shortHash } from '../../short-hash.ts';

// Every results message fingerprints its page's records: the same few SAP numbers, hashed once.
const fingerprint = remembered((sapId: string) => shortHash(sapId, 6), 4_096);

/**
 * A short fingerprint of a record's SAP number, carried by the buttons that open it: the portal's
 * data moves, and a button must open the record it was made for or say it is gone, never show
 * whatever now stands at its place.
 */
export const recordId = (sapId: string): string => fingerprint(sapId);
