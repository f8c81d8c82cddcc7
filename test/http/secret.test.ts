import { describe, expect, it } from 'vitest';
import { secretMatcher } from '../../src/http/secret.ts';

describe('secretMatcher', () => {
  it('takes only the very secret, as one header value', () => {
    const matches = secretMatcher('s3cret_-A');
    expect(matches('s3cret_-A')).toBe(true);
    expect(matches('s3cret_-a')).toBe(false);
    expect(matches('s3cret_-A ')).toBe(false);
    expect(matches('')).toBe(false);
    expect(matches(undefined)).toBe(false);
    expect(matches(['s3cret_-A', 's3cret_-A'])).toBe(false);
  });
});
