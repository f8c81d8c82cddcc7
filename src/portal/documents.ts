import type { Document, Specification } from './schemas.ts';

// The portal may send one document in both DOCUMENT and DOCUMENT_LIST (the spec: "same element
// shape"): wherever a specification's documents are shown or compared, they are this one list.

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
