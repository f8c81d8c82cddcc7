import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openPortal, PORTAL_CONNECTIONS } from '../../src/app/portal.ts';
import { parseConfig } from '../../src/config.ts';
import { createBotMetrics } from '../../src/metrics/bot-metrics.ts';
import { startTestPortal, type TestPortal } from '../support/test-portal.ts';

// openPortal's connections: a lookup beyond PORTAL_CONNECTIONS waits for one instead of opening another.

let testPortal: TestPortal | undefined;
afterEach(async () => {
  await testPortal?.close();
  testPortal = undefined;
});

const waitFor = async (condition: () => boolean) => {
  for (let tries = 0; !condition() && tries < 200; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('the portal’s connections', () => {
  it(`asks on at most ${PORTAL_CONNECTIONS} at once: 40 lookups wait in line for them and all are answered`, async () => {
    testPortal = await startTestPortal();
    const config = parseConfig({ PORTAL_URL: testPortal.url, PORTAL_TOKEN: testPortal.token, PORTAL_CACHE_SECONDS: '0', PORTAL_TIMEOUT_MS: '10000', ALLOW_ANYONE: 'true' });
    if (config.portal.kind !== 'remote') throw new Error('a remote portal was configured');
    const opened = await openPortal(config.portal, pino({ level: 'silent' }), createBotMetrics());
    const held = testPortal.hangWhere(() => true);
    try {
      const lookups = Array.from({ length: 40 }, (_, k) =>
        opened.portal.listOrders({ resource: 'order', filter: 'SAP_ID', value: String(7_300_100 + k).padStart(10, '0') }, { limit: 5, offset: 0 }),
      );
      await waitFor(() => held.count() >= PORTAL_CONNECTIONS);
      await new Promise((resolve) => setTimeout(resolve, 200)); // time for any more to arrive
      expect(held.count()).toBe(PORTAL_CONNECTIONS);
      held.release();
      const pages = await Promise.all(lookups);
      expect(pages).toHaveLength(40);
      expect(testPortal.requests.filter((url) => url.startsWith('/api/lk/order'))).toHaveLength(40);
    } finally {
      held.release();
      await opened.close();
    }
  });
});
