import { createHash, timingSafeEqual } from 'node:crypto';

// Hashing first gives equal lengths, so the comparison time says nothing about the secret.
const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A constant-time check of a presented secret (a header value, a bearer token) against `secret`. */
export const secretMatcher = (secret: string) => {
  const expected = digest(secret);
  return (given: string | string[] | undefined): boolean => typeof given === 'string' && timingSafeEqual(digest(given), expected);
};
