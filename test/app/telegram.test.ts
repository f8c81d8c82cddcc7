import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiving, type Receiving } from '../../src/app/telegram.ts';
import { createMetricsRegistry } from '../../src/metrics/registry.ts';
import { startDroppingProxy } from '../telegram/dropping-proxy.ts';
import { createTestBot, startFixture, until, type Fixture, type TextUpdate } from '../telegram/fixture.ts';

// startReceiving in webhook mode, against the emulator (directly or behind a misbehaving proxy).

let f: Fixture;
let receiving: Receiving | undefined;
beforeEach(async () => {
  f = await startFixture();
});
afterEach(async () => {
  await receiving?.stop(100);
  receiving = undefined;
  await f.close();
});

const startWebhook = async (onText: (update: TextUpdate) => Promise<void>, { apiRoot = f.api.apiRoot, onSecret = (_: string) => {} } = {}) => {
  const bot = createTestBot(f.api, onText, apiRoot);
  receiving = await startReceiving({
    bot,
    config: { webhook: { url: 'https://bot.example.com/hook', secret: undefined }, port: 0, concurrency: 1, handlerDeadlineMs: 300 },
    logger: f.logger,
    metrics: createMetricsRegistry(),
    readiness: () => ({ ready: true, detail: {} }),
    backoff: { baseMs: 20, maxMs: 100 },
    onSecret,
  });
  const port = f.logged('receiving updates')[0]?.port as number;
  const secret = String(f.api.webhook?.params.secret_token);
  let nextId = 100;
  const post = (update: unknown) =>
    fetch(`http://127.0.0.1:${port}/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify(update),
    }).then((response) => response.status);
  const send = (from: ReturnType<typeof f.api.createUser>, text: string) => post({ update_id: (nextId += 1), message: f.api.sendText({ from, text }) });
  return { post, send, secret };
};

describe('webhook start-up', () => {
  it('retries getMe and setWebhook, reports the generated secret first, and never logs it', async () => {
    const proxy = await startDroppingProxy(f.api.apiRoot);
    f.onClose(proxy.close);
    proxy.refuseNext(1);
    f.api.failNext('setWebhook', { error_code: 502 }, { times: 2 });
    const reported: string[] = [];
    const { send, secret } = await startWebhook((update) => update.reply(`echo ${update.text}`).then(() => undefined), {
      apiRoot: proxy.url,
      onSecret: (value) => reported.push(value),
    });
    expect(reported).toEqual([secret]);
    expect(f.logged('a Telegram call at start failed, retrying').map((line) => line.method)).toEqual(['getMe', 'setWebhook', 'setWebhook']);
    const user = f.api.createUser();
    expect(await send(user, 'hi')).toBe(200);
    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    expect(JSON.stringify(f.logs)).not.toContain(secret);
  });
});

describe('webhook updates', () => {
  it('keeps a chat in order and CONCURRENCY=1 past a Telegram call that hangs, cancelled at the deadline', async () => {
    const proxy = await startDroppingProxy(f.api.apiRoot);
    f.onClose(proxy.close);
    const events: string[] = [];
    let active = 0;
    let maxActive = 0;
    const { send } = await startWebhook(
      async (update) => {
        active++;
        maxActive = Math.max(maxActive, active);
        events.push(`start ${update.text}`);
        await update.reply(`reply ${update.text}`).catch(() => events.push(`failed ${update.text}`));
        events.push(`end ${update.text}`);
        active--;
      },
      { apiRoot: proxy.url },
    );
    const alice = f.api.createUser();
    const bob = f.api.createUser();
    proxy.hang('sendMessage');
    await send(alice, 'one');
    await until(() => proxy.held() === 1);
    proxy.release('sendMessage');
    await send(alice, 'two');
    await send(bob, 'three');

    await until(() => events.includes('end three'));
    expect(maxActive).toBe(1);
    expect(events.slice(0, 3)).toEqual(['start one', 'failed one', 'end one']);
    expect(events.indexOf('start two')).toBeGreaterThan(events.indexOf('end one'));
    expect(f.logged('update passed its deadline: its Telegram calls are cancelled')[0]).toMatchObject({ methods: ['sendMessage'] });
  });

  it('handles an update posted twice once, and drops a malformed one with 200', async () => {
    const handled: number[] = [];
    const { post } = await startWebhook(async (update) => void handled.push(update.updateId));
    const user = f.api.createUser();
    const message = f.api.sendText({ from: user, text: 'hello' });
    expect(await post({ update_id: 7, message })).toBe(200);
    expect(await post({ update_id: 7, message })).toBe(200);
    // Not 400: Telegram would post it again and again, holding the updates after it back.
    expect(await post({ update_id: '8', message })).toBe(200);
    expect(await post({ update_id: -3, message })).toBe(200);
    expect(await post({ update_id: 9, message })).toBe(200);

    await until(() => handled.includes(9));
    expect(handled).toEqual([7, 9]);
    expect(f.logged('skipped an update already handled')).toMatchObject([{ updateId: 7 }]);
    expect(f.logged('dropped a webhook body that is not an update')).toHaveLength(2);
  });
});
