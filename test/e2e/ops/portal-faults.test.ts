import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.ts';

// The portal fails in each way a real one does: the bot retries what may succeed next time,
// re-reads a rotated token on 401, and stops asking a portal that keeps failing.

const ORDER = '0007300100';

describe('retries', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.portal.fail(undefined));
  afterAll(() => h.close());

  it('retries a 5xx once and the user gets the result', async () => {
    const before = h.portal.requests.length;
    h.portal.failNext('http500');
    const reply = await h.ask(h.api.createUser({ language_code: 'en' }), `/order ${ORDER}`);
    expect(reply.text).toMatch(/^Order No\. \d{10} dated /);
    expect(h.portal.requests.length - before).toBe(2);
    expect(h.logs.some((line) => line.msg === 'portal call failed, retrying' && line.attempt === 1)).toBe(true);
  });

  it('retries a dropped connection once and the user gets the result', async () => {
    const before = h.portal.requests.length;
    h.portal.failNext('reset');
    const reply = await h.ask(h.api.createUser({ language_code: 'en' }), `/order ${ORDER}`);
    expect(reply.text).toMatch(/^Order No\. \d{10} dated /);
    expect(h.portal.requests.length - before).toBe(2);
    const retried = h.logs.filter((line) => line.msg === 'portal call failed, retrying').at(-1);
    expect(retried).toMatchObject({ err: { type: 'PortalNetworkError' } });
  });

  it('retries only once: two 5xx in a row reach the user as an error', async () => {
    const before = h.portal.requests.length;
    h.portal.failNext('http500', 2);
    const reply = await h.ask(h.api.createUser({ language_code: 'en' }), `/order ${ORDER}`);
    expect(reply.text).toContain('The portal answered with an error');
    expect(h.portal.requests.length - before).toBe(2);
  });
});

describe('a portal token rotated by a sidecar (PORTAL_TOKEN_FILE)', () => {
  let h: Harness;
  const dir = mkdtempSync(join(tmpdir(), 'portal-token-'));
  const tokenFile = join(dir, 'token');
  const oldToken = 'test-portal-token';
  const newToken = 'rotated-token-5b1f0c9e7d';
  beforeAll(async () => {
    writeFileSync(tokenFile, `${oldToken}\n`);
    h = await startHarness({ env: { PORTAL_TOKEN_FILE: tokenFile } });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is re-read on 401 and the lookup retried with it; the log shows neither token', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(user, `/order ${ORDER}`)).text).toMatch(/^Order No\. \d{10} dated /);
    expect(h.portal.received.at(-1)?.token).toBe(oldToken);

    h.portal.rotateToken(newToken);
    writeFileSync(tokenFile, `${newToken}\n`);
    const before = h.portal.received.length;
    const reply = await h.ask(user, `/order ${ORDER}`);
    expect(reply.text).toMatch(/^Order No\. \d{10} dated /);
    expect(h.portal.received.slice(before).map((request) => request.token)).toEqual([oldToken, newToken]);
    expect(h.logs.some((line) => line.msg === 'portal answered 401; retrying with the reloaded token')).toBe(true);

    // The new token is kept: the next lookup sends it straight away.
    await h.ask(user, `/order ${ORDER}`);
    expect(h.portal.received.slice(before + 2).map((request) => request.token)).toEqual([newToken]);

    const log = JSON.stringify(h.logs);
    expect(log).not.toContain(oldToken);
    expect(log).not.toContain(newToken);
  });

  it('tells the user when the file still holds the refused token, without retrying blindly', async () => {
    h.portal.rotateToken('yet-another-token-91ab');
    const before = h.portal.requests.length;
    const reply = await h.ask(h.api.createUser({ language_code: 'en' }), `/order ${ORDER}`);
    expect(reply.text).toContain('The portal answered with an error');
    expect(h.portal.requests.length - before).toBe(1);
    expect(JSON.stringify(h.logs)).not.toContain(newToken);
  });
});

describe('a portal that keeps failing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('is reported at once after the breaker opens, without asking it, and is used again once it recovers', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    h.portal.fail('http500');
    // Five failed lookups (each retried once) open the circuit.
    for (let i = 0; i < 5; i += 1) expect((await h.ask(user, `/order ${ORDER}`)).text).toContain('The portal answered with an error');
    expect(h.logs.some((line) => line.msg === 'portal circuit open')).toBe(true);

    const before = h.portal.requests.length;
    const started = performance.now();
    const fast = await h.ask(user, `/order ${ORDER}`);
    const elapsed = performance.now() - started;
    expect(fast.text).toContain('The portal cannot be reached');
    expect(elapsed).toBeLessThan(300);
    expect(h.portal.requests.length).toBe(before);

    // The portal is back, but the circuit stays open for its period.
    h.portal.fail(undefined);
    expect((await h.ask(user, `/order ${ORDER}`)).text).toContain('The portal cannot be reached');
    expect(h.portal.requests.length).toBe(before);

    // The breaker's 30 s open period passes on the harness's clock, which the portal reads.
    h.advance(30_000);
    const recovered = await h.ask(user, `/order ${ORDER}`);
    expect(recovered.text).toMatch(/^Order No\. \d{10} dated /);
    expect(h.portal.requests.length).toBe(before + 1);
    expect(h.logs.some((line) => line.msg === 'portal circuit closed')).toBe(true);
  });
});
