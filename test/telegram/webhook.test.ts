import { pino } from 'pino';
import { Telegram } from '../../src/telegram/telegraf/core.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { Store } from '../../src/store/store.ts';
import { createStartUpRetry } from '../../src/telegram/start-up.ts';
import { setupWebhook, WEBHOOK_KEYS } from '../../src/telegram/webhook.ts';
import { startBotApi } from '../support/bot-api/index.ts';
import type { BotApi } from '../support/bot-api/index.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { useTempDirs } from '../store/support.ts';

// setupWebhook on the emulator (which refuses a second setWebhook within a second, as Telegram
// does) and a real store: the sqlite file, or PostgreSQL shared by several replicas.

const tempDir = useTempDirs();
const silent = pino({ level: 'silent' });
let api: BotApi;
let telegram: Telegram;
const stores: Store[] = [];
beforeEach(async () => {
  api = await startBotApi();
  telegram = new Telegram(api.token, { apiRoot: api.apiRoot });
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await api.close();
});

const sqliteStore = (dir = tempDir()) => {
  const store = openSqliteStore({ dataDir: dir });
  stores.push(store);
  return store;
};

describe('setupWebhook', () => {
  it('sets the webhook with the given secret and an explicit list of update types', async () => {
    const { coordination } = sqliteStore();
    const webhook = await setupWebhook({
      telegram,
      url: 'https://bot.example.com/telegram/hook',
      secretToken: 'given_Secret-1',
      botToken: api.token,
      allowedUpdates: ['message', 'callback_query'],
      coordination,
    });
    expect(webhook).toEqual({ url: 'https://bot.example.com/telegram/hook', secretToken: 'given_Secret-1', path: '/telegram/hook', changed: true });
    expect(api.webhook).toEqual({
      url: 'https://bot.example.com/telegram/hook',
      params: expect.objectContaining({
        secret_token: 'given_Secret-1',
        allowed_updates: ['message', 'callback_query'],
        drop_pending_updates: false,
      }),
    });
    // The secret is not stored: only a fingerprint of what was set.
    expect(await coordination.value(WEBHOOK_KEYS.fingerprint)).not.toContain('given_Secret-1');
  });

  it('calls setWebhook only when the URL, the update types or the secret differ from what Telegram has', async () => {
    const { coordination } = sqliteStore();
    const setup = (changes: { url?: string; secretToken?: string; allowedUpdates?: Array<'message' | 'callback_query'> } = {}) =>
      setupWebhook({ telegram, url: 'https://bot.example.com/hook', secretToken: 'one', botToken: api.token, allowedUpdates: ['message', 'callback_query'], coordination, ...changes });
    expect((await setup()).changed).toBe(true);
    // In the same second: a second setWebhook would be refused with 429, and none is made.
    expect((await setup()).changed).toBe(false);
    expect((await setup({ allowedUpdates: ['callback_query', 'message'] })).changed).toBe(false);
    expect(api.webhookSets()).toBe(1);

    api.advanceTime(1);
    expect((await setup({ secretToken: 'two' })).changed).toBe(true);
    expect(api.webhook?.params.secret_token).toBe('two');
    api.advanceTime(1);
    expect((await setup({ secretToken: 'two', allowedUpdates: ['message'] })).changed).toBe(true);
    api.advanceTime(1);
    // Someone pointed the bot elsewhere (another deployment, a manual call): set again.
    await telegram.setWebhook('https://other.example.com/hook');
    api.advanceTime(1);
    expect((await setup({ secretToken: 'two', allowedUpdates: ['message'] })).changed).toBe(true);
    expect(api.webhook?.url).toBe('https://bot.example.com/hook');
    expect(api.webhookSets()).toBe(5);
  });

  it('derives a secret and, for a URL without a path, an unguessable path from the bot token: the same at the next start, stored nowhere', async () => {
    const dir = tempDir();
    const first = sqliteStore(dir);
    const webhook = await setupWebhook({ telegram, url: 'https://bot.example.com', botToken: api.token, allowedUpdates: [], coordination: first.coordination });
    expect(webhook.secretToken).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    expect(webhook.path).toMatch(/^\/telegram\/[A-Za-z0-9_-]{20,}$/);
    expect(webhook.url).toBe(`https://bot.example.com${webhook.path}`);
    expect(api.webhook?.url).toBe(webhook.url);
    expect(api.webhook?.params).toMatchObject({ secret_token: webhook.secretToken, allowed_updates: [] });
    await first.close();

    const reported: string[] = [];
    const again = await setupWebhook({
      telegram,
      url: 'https://bot.example.com/',
      botToken: api.token,
      allowedUpdates: [],
      coordination: sqliteStore(dir).coordination,
      onSecret: (secret) => reported.push(secret),
    });
    expect(again).toEqual({ ...webhook, changed: false });
    expect(reported).toEqual([webhook.secretToken]);
    expect(api.webhookSets()).toBe(1);
    // Nothing of it is in the store: a copy of the database cannot forge updates.
    const stored = sqliteStore(dir);
    const rows = await stored.coordination.value(WEBHOOK_KEYS.fingerprint);
    expect(rows).not.toContain(webhook.secretToken);
    // Another bot token, another secret and path.
    api.advanceTime(1);
    const other = await setupWebhook({ telegram, url: 'https://bot.example.com', botToken: `${api.token}x`, allowedUpdates: [], coordination: sqliteStore().coordination });
    expect(other.secretToken).not.toBe(webhook.secretToken);
    expect(other.path).not.toBe(webhook.path);
  });

  it('refuses a bad secret or a URL Telegram would not post to, without calling Telegram', async () => {
    const { coordination } = sqliteStore();
    const url = 'https://bot.example.com/hook';
    await expect(setupWebhook({ telegram, url, botToken: api.token, secretToken: 'has space', allowedUpdates: [], coordination })).rejects.toThrow(/secret token/);
    await expect(setupWebhook({ telegram, url, botToken: api.token, secretToken: '', allowedUpdates: [], coordination })).rejects.toThrow(/secret token/);
    await expect(setupWebhook({ telegram, url, botToken: api.token, secretToken: 'x'.repeat(257), allowedUpdates: [], coordination })).rejects.toThrow(/secret token/);
    await expect(setupWebhook({ telegram, url: 'http://bot.example.com/hook', botToken: api.token, allowedUpdates: [], coordination })).rejects.toThrow(/https/);
    await expect(setupWebhook({ telegram, url: '/hook', botToken: api.token, allowedUpdates: [], coordination })).rejects.toThrow(/valid absolute URL/);
    expect(api.calls).toEqual([]);
  });
});

describe('setupWebhook with replicas on one PostgreSQL database', () => {
  it('makes one setWebhook call for four replicas starting together, all with the same secret and path', async () => {
    const url = await freshDatabase();
    const replicas = await Promise.all([1, 2, 3, 4].map(() => openPostgresStore({ url, poolSize: 2, logger: silent })));
    stores.push(...replicas);
    const attempt = createStartUpRetry({ logger: silent, backoff: { baseMs: 20, maxMs: 100 } });
    const hooks = await Promise.all(
      replicas.map(({ coordination }) =>
        setupWebhook({ telegram: new Telegram(api.token, { apiRoot: api.apiRoot }), url: 'https://bot.example.com', botToken: api.token, allowedUpdates: ['message'], coordination, attempt }),
      ),
    );
    expect(api.callsTo('setWebhook')).toHaveLength(1);
    expect(api.callsTo('getWebhookInfo')).toHaveLength(4);
    expect(hooks.filter((hook) => hook.changed)).toHaveLength(1);
    expect(new Set(hooks.map((hook) => `${hook.secretToken} ${hook.url}`)).size).toBe(1);
    expect(api.webhook).toMatchObject({ url: hooks[0]?.url, params: { secret_token: hooks[0]?.secretToken } });
  });
});
