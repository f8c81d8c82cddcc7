import { createHash } from 'node:crypto';

/**
 * The first `length` characters of the text's SHA-256 in base64url: the one way the bot derives a
 * short key from content (stored queries, record fingerprints, inline result ids).
 */
export const shortHash = (text: string, length: number): string => createHash('sha256').update(text).digest('base64url').slice(0, length);
