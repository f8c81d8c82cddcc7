import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDroppingProxy } from './dropping-proxy.ts';
import { createTestBot, sleep, startFixture, until } from './fixture.ts';
import type { Fixture } from './fixture.ts';

let f: Fixture;
beforeEach(async () => {
  f = await startFixture();
});
afterEach(async () => {
  await f.close();
});

const DEADLINE_LOG = 'update passed its deadline: its Telegram calls are cancelled';

describe('the handler deadline in polling', () => {
  it('cancels a Telegram call that hangs, keeps the chat in order and CONCURRENCY=1, then handles the next update', async () => {
    const proxy = await startDroppingProxy(f.api.apiRoot);
    f.onClose(proxy.close);
    const alice = f.api.createUser();
    const bob = f.api.createUser();
    const events: string[] = [];
    let active = 0;
    let maxActive = 0;
    const bot = createTestBot(
      f.api,
      async (update) => {
        active++;
        maxActive = Math.max(maxActive, active);
        events.push(`start ${update.text}`);
        try {
          await update.reply(`reply ${update.text}`);
        } catch {
          events.push(`failed ${update.text}`);
        }
        events.push(`end ${update.text}`);
        active--;
      },
      proxy.url,
    );
    proxy.hang('sendMessage');
    await f.start({ bot, concurrency: 1, handlerDeadlineMs: 300 });

    f.api.sendText({ from: alice, text: 'secret-order-text' });
    f.api.sendText({ from: alice, text: 'two' });
    f.api.sendText({ from: bob, text: 'three' });
    await until(() => proxy.held() === 1);
    const startedAt = Date.now();
    proxy.release('sendMessage');

    await until(() => events.includes('end three'));
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250);
    expect(maxActive).toBe(1);
    expect(events.slice(0, 3)).toEqual(['start secret-order-text', 'failed secret-order-text', 'end secret-order-text']);
    expect(events.indexOf('start two')).toBeGreaterThan(events.indexOf('end secret-order-text'));
    expect((await f.api.nextBotMessage(alice.id)).text).toBe('reply two');
    const [warning] = f.logged(DEADLINE_LOG);
    expect(warning).toMatchObject({ level: 40, deadlineMs: 300, methods: ['sendMessage'], updateId: expect.any(Number) });
    expect(JSON.stringify(f.logs)).not.toContain('secret-order-text');
  });

  it('makes a Telegram call made after the deadline fail at once, without reaching Telegram', async () => {
    const user = f.api.createUser();
    let failure: unknown;
    const bot = createTestBot(f.api, async (update) => {
      await sleep(400);
      const before = Date.now();
      failure = await update.reply('too late').catch((error: unknown) => error);
      if (Date.now() - before > 50) throw new Error('the late call was not refused at once');
    });
    await f.start({ bot, handlerDeadlineMs: 200 });
    f.api.sendText({ from: user, text: 'slow' });

    await until(() => failure !== undefined);
    expect(failure).toMatchObject({ name: 'HandlerDeadlineError', method: 'sendMessage' });
    expect(f.api.callsTo('sendMessage')).toHaveLength(0);
    expect(f.logged(DEADLINE_LOG)[0]).toMatchObject({ methods: [] });
  });

  it('logs nothing for a handler that ends before its deadline', async () => {
    const user = f.api.createUser();
    const bot = createTestBot(f.api, (update) => update.reply('quick').then(() => undefined));
    await f.start({ bot, handlerDeadlineMs: 200 });
    f.api.sendText({ from: user, text: 'hi' });
    await f.api.nextBotMessage(user.id);
    await sleep(300);
    expect(f.logged(DEADLINE_LOG)).toEqual([]);
  });
});
