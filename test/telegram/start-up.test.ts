import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTelegraf } from '../../src/telegram/telegraf/bot.ts';
import { startPolling } from '../../src/telegram/polling-runner.ts';
import { startDroppingProxy } from './dropping-proxy.ts';
import { createTestBot, startFixture } from './fixture.ts';
import type { Fixture } from './fixture.ts';

let f: Fixture;
beforeEach(async () => {
  f = await startFixture();
});
afterEach(async () => {
  await f.close();
});

const echoBot = (fixture: Fixture, apiRoot?: string) => createTestBot(fixture.api, (update) => update.reply(`echo ${update.text}`).then(() => undefined), apiRoot);

describe('start-up of polling', () => {
  it('retries getMe and deleteWebhook while the Bot API answers 5xx, then answers a message', async () => {
    f.api.failNext('getMe', { error_code: 502 }, { times: 2 });
    f.api.failNext('deleteWebhook', { error_code: 500 });
    await f.start({ bot: echoBot(f) });
    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'hi' });

    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    const retries = f.logged('a Telegram call at start failed, retrying');
    expect(retries.map((line) => [line.method, line.attempt])).toEqual([
      ['getMe', 1],
      ['getMe', 2],
      ['deleteWebhook', 1],
    ]);
    expect(retries[0]).toMatchObject({ level: 40, delayMs: expect.any(Number), err: expect.any(Object) });
  });

  it('retries while the Bot API refuses connections', async () => {
    const proxy = await startDroppingProxy(f.api.apiRoot);
    f.onClose(proxy.close);
    proxy.refuseNext(3);
    await f.start({ bot: echoBot(f, proxy.url) });
    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'hi' });

    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    expect(f.logged('a Telegram call at start failed, retrying').length).toBeGreaterThanOrEqual(3);
  });

  it('gives up at once on a 404 (a wrong token)', async () => {
    f.api.failNext('getMe', { error_code: 404 });
    await expect(f.start({ bot: echoBot(f) })).rejects.toMatchObject({ code: 404 });
    expect(f.logged('a Telegram call at start failed, retrying')).toEqual([]);
  });

  it('gives up at once on a 401', async () => {
    const bot = createTelegraf('123456:not-the-token', { apiRoot: f.api.apiRoot });
    await expect(startPolling({ bot, logger: f.logger, backoff: { baseMs: 20, maxMs: 100 } })).rejects.toMatchObject({ code: 401 });
    expect(f.api.callsTo('getMe')).toHaveLength(1);
  });
});
