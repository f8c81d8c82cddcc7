import { createHash } from 'node:crypto';
import { remembered } from './remembered.ts';

/**
 * The first `length` characters of the text's SHA-256 in base64url: the one way the bot derives a
 * short key from content (stored queries, record fingerprints, inline result ids).
 */
export const shortHash = (text: string, length: number): string => createHash('sha256').update(text).digest('base64url').slice(0, length);

/** One bounded memory per key length (a few: 6, 16), so a call builds no string of its own. */
const byLength = new Map<number, (text: string) => string>();

/**
 * shortHash for keys the bot derives again and again from the same few contents (record
 * fingerprints, stored-query and watch-target keys: every results message and press asks for
 * some): each hashed once while it keeps coming back. Not for secrets, which would stay in memory.
 */
export const contentKey = (text: string, length: number): string => {
  let hash = byLength.get(length);
  if (hash === undefined) {
    hash = remembered((content: string) => shortHash(content, length), 4_096);
    byLength.set(length, hash);
  }
  return hash(text);
};
