import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalHttpError } from '../../../src/portal/errors.ts';
import type { PortalEvent } from '../../../src/portal/resilience/intercept.ts';
import { createPortalClientWithTokens } from '../../../src/portal/resilience/token-rotation.ts';
import { createTokenSource } from '../../../src/portal/resilience/token-source.ts';
import { json, startHttpStub, type StubHandler } from '../../support/http-stub.ts';
import { envelope, paging, query } from './fixtures.ts';

/** The portal accepts one token only. */
const accepting = (token: string): StubHandler => (req, res) =>
  req.headers.authorization === `Bearer ${token}` ? json(200, envelope())(req, res) : json(401, 'unauthorized')(req, res);

describe('createTokenSource', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-token-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a fixed token', () => {
    const tokens = createTokenSource({ token: 'fixed' });
    expect([tokens.current(), tokens.reload()]).toEqual(['fixed', 'fixed']);
  });

  it('reads the file trimmed, and again only on reload', () => {
    const file = join(dir, 'token');
    writeFileSync(file, '  first\n');
    const tokens = createTokenSource({ token: 'ignored', tokenFile: file });
    expect(tokens.current()).toBe('first');
    writeFileSync(file, 'second\n');
    expect(tokens.current()).toBe('first');
    expect(tokens.reload()).toBe('second');
    expect(tokens.current()).toBe('second');
  });

  it('refuses an empty file or no token at all', () => {
    const file = join(dir, 'token');
    writeFileSync(file, '\n');
    expect(() => createTokenSource({ tokenFile: file })).toThrow(/empty/);
    expect(() => createTokenSource({})).toThrow(/required/);
  });
});

describe('createPortalClientWithTokens', () => {
  let stub: Awaited<ReturnType<typeof startHttpStub>>;
  let dir: string;
  let file: string;
  let events: PortalEvent[];
  const client = () =>
    createPortalClientWithTokens({
      baseUrl: stub.url,
      timeoutMs: 300,
      tokens: createTokenSource({ tokenFile: file }),
      onEvent: (e) => events.push(e),
    });
  const sentTokens = () => stub.requests.map((r) => r.headers.authorization);

  beforeEach(async () => {
    stub = await startHttpStub(accepting('old'));
    dir = mkdtempSync(join(tmpdir(), 'portal-token-'));
    file = join(dir, 'token');
    writeFileSync(file, 'old\n');
    events = [];
  });
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    await stub.close();
  });

  it('on 401 reads the rotated token, retries once and keeps using it', async () => {
    const portal = client();
    await portal.listOrders(query, paging);
    stub.respond(accepting('new'));
    writeFileSync(file, 'new\n');
    const page = await portal.listOrders(query, paging);
    expect(page.items).toHaveLength(1);
    await portal.listOrders(query, paging);
    expect(sentTokens()).toEqual(['Bearer old', 'Bearer old', 'Bearer new', 'Bearer new']);
    expect(events).toEqual([{ type: 'tokenReload', endpoint: 'listOrders' }]);
  });

  it('surfaces a second 401', async () => {
    const portal = client();
    stub.respond(accepting('nobody'));
    writeFileSync(file, 'new\n');
    await expect(portal.listOrders(query, paging)).rejects.toMatchObject({ constructor: PortalHttpError, status: 401 });
    expect(sentTokens()).toEqual(['Bearer old', 'Bearer new']);
  });

  it('does not resend when the token did not change', async () => {
    stub.respond(accepting('nobody'));
    await expect(client().listOrders(query, paging)).rejects.toMatchObject({ status: 401 });
    expect(stub.requests).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('surfaces the 401 when the token file cannot be read again', async () => {
    const portal = client();
    stub.respond(accepting('nobody'));
    unlinkSync(file);
    await expect(portal.listOrders(query, paging)).rejects.toMatchObject({ status: 401 });
    expect(stub.requests).toHaveLength(1);
  });

  it('does not reload on other errors', async () => {
    const portal = client();
    stub.respond(json(403, 'forbidden'));
    writeFileSync(file, 'new\n');
    await expect(portal.listOrders(query, paging)).rejects.toMatchObject({ status: 403 });
    expect(sentTokens()).toEqual(['Bearer old']);
  });
});
