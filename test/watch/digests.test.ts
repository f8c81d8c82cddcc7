import { describe, expect, it } from 'vitest';
import type { Digest, WatchStore } from '../../src/store/watch-store.ts';
import { createDigester, MISSED_LIMIT_MS } from '../../src/watch/digests.ts';

// The digester's account of each digest it claims (digests_total{outcome}): prepared, skipped
// when more than 6 hours late, failed (given back to be tried again in a minute).

const NINE = Date.parse('2026-11-24T06:00:00Z');
const digestDue = (nextAt: number): Digest => ({ chatId: 7, minute: 540, quiet: false, locale: 'en', createdBy: 7, createdAt: 0, nextAt });
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

const run = async (digest: Digest, at: number, render: () => string[]) => {
  const outcomes: string[] = [];
  const released: number[] = [];
  const skipped: number[] = [];
  const store = {
    claimDigests: () => [digest],
    prepareDigest: (_chatId: number, _owner: string, _at: unknown, build: (input: unknown) => string[]) => build({ digest, watches: [], held: [] }).length,
    skipDigest: (_chatId: number, _owner: string, nextAt: number) => (skipped.push(nextAt), true),
    releaseDigest: (_chatId: number, _owner: string, retryAt: number) => void released.push(retryAt),
  } as unknown as WatchStore;
  const digester = createDigester({
    store,
    owner: 'a',
    leaseMs: 30_000,
    now: () => at,
    zoneOf: () => 'Europe/Moscow',
    localeOf: () => 'en',
    render,
    logger: silent,
    onOutcome: (outcome) => outcomes.push(outcome),
  });
  expect(await digester.tick()).toBe(1);
  return { outcomes, released, skipped };
};

describe('the digester', () => {
  it('counts a digest prepared on time or late within 6 hours', async () => {
    expect((await run(digestDue(NINE), NINE, () => ['{}'])).outcomes).toEqual(['prepared']);
    expect((await run(digestDue(NINE), NINE + MISSED_LIMIT_MS - 1, () => [])).outcomes).toEqual(['prepared']);
  });

  it('skips one 6 hours late or more, to the next day', async () => {
    const { outcomes, skipped } = await run(digestDue(NINE), NINE + MISSED_LIMIT_MS, () => ['{}']);
    expect(outcomes).toEqual(['skipped']);
    expect(skipped).toEqual([NINE + 24 * 3_600_000]);
  });

  it('gives back one that could not be prepared, due again in a minute, and counts it failed', async () => {
    const { outcomes, released } = await run(digestDue(NINE), NINE, () => {
      throw new Error('render failed');
    });
    expect(outcomes).toEqual(['failed']);
    expect(released).toEqual([NINE + 60_000]);
  });
});
