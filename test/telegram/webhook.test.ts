import { Telegram } from 'telegraf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupWebhook } from '../../src/telegram/webhook.ts';
import { startBotApi } from '../support/bot-api/index.ts';
import type { BotApi } from '../support/bot-api/index.ts';

let api: BotApi;
let telegram: Telegram;
beforeEach(async () => {
  api = await startBotApi();
  telegram = new Telegram(api.token, { apiRoot: api.apiRoot });
});
afterEach(() => api.close());

describe('setupWebhook', () => {
  it('sets the webhook with the given secret and an explicit list of update types', async () => {
    const webhook = await setupWebhook({
      telegram,
      url: 'https://bot.example.com/telegram/hook',
      secretToken: 'given_Secret-1',
      allowedUpdates: ['message', 'callback_query'],
    });
    expect(webhook).toEqual({ url: 'https://bot.example.com/telegram/hook', secretToken: 'given_Secret-1', path: '/telegram/hook' });
    expect(api.webhook).toEqual({
      url: 'https://bot.example.com/telegram/hook',
      params: expect.objectContaining({
        secret_token: 'given_Secret-1',
        allowed_updates: ['message', 'callback_query'],
        drop_pending_updates: false,
      }),
    });
  });

  it('generates a secret and, for a URL without a path, a random path', async () => {
    const webhook = await setupWebhook({ telegram, url: 'https://bot.example.com', allowedUpdates: [] });
    expect(webhook.secretToken).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    expect(webhook.path).toMatch(/^\/telegram\/[A-Za-z0-9_-]{20,}$/);
    expect(webhook.url).toBe(`https://bot.example.com${webhook.path}`);
    expect(api.webhook?.url).toBe(webhook.url);
    expect(api.webhook?.params).toMatchObject({ secret_token: webhook.secretToken, allowed_updates: [] });
    const other = await setupWebhook({ telegram, url: 'https://bot.example.com/', allowedUpdates: [] });
    expect([other.secretToken, other.path]).not.toEqual([webhook.secretToken, webhook.path]);
  });

  it('refuses a bad secret or a URL Telegram would not post to, without calling Telegram', async () => {
    const url = 'https://bot.example.com/hook';
    await expect(setupWebhook({ telegram, url, secretToken: 'has space', allowedUpdates: [] })).rejects.toThrow(/secret token/);
    await expect(setupWebhook({ telegram, url, secretToken: '', allowedUpdates: [] })).rejects.toThrow(/secret token/);
    await expect(setupWebhook({ telegram, url, secretToken: 'x'.repeat(257), allowedUpdates: [] })).rejects.toThrow(/secret token/);
    await expect(setupWebhook({ telegram, url: 'http://bot.example.com/hook', allowedUpdates: [] })).rejects.toThrow(/https/);
    await expect(setupWebhook({ telegram, url: '/hook', allowedUpdates: [] })).rejects.toThrow(/valid absolute URL/);
    expect(api.webhook).toBeUndefined();
  });
});
