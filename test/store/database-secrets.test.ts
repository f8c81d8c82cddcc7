import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/logger.ts';
import { databaseSecrets } from '../../src/store/database-secrets.ts';

describe('databaseSecrets', () => {
  it("takes the user info's password, as written and decoded", () => {
    expect(databaseSecrets('postgres://bot:pa%25ss@db:5432/bot')).toEqual(['pa%25ss', 'pa%ss']);
    expect(databaseSecrets('postgres://bot@db/bot')).toEqual([]);
    expect(databaseSecrets(undefined)).toEqual([]);
  });

  it('takes a password given as ?password=, which node-postgres reads too (and prefers)', () => {
    expect(databaseSecrets('postgres://bot@db/bot?sslmode=require&password=s3cr%2Bt+x')).toEqual(['s3cr%2Bt+x', 's3cr+t x']);
    expect(databaseSecrets('postgres://bot:one@db/bot?password=two')).toEqual(['one', 'two']);
  });

  it('keeps every form of them out of a line that holds the URL', () => {
    const url = 'postgres://bot:first-pass@db/bot?password=query%20pass';
    const line = redactSecrets(databaseSecrets(url))(JSON.stringify({ msg: 'connecting', url, decoded: 'query pass' }));
    expect(line).not.toMatch(/first-pass|query(%20| )pass/);
  });
});
