import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPolling } from '../../src/telegram/polling-runner.ts';
import { startDroppingProxy } from './dropping-proxy.ts';
import { createTelegraf } from '../../src/telegram/telegraf/bot.ts';
import { createTestBot, sleep, startFixture } from './fixture.ts';
import type { Fixture } from './fixture.ts';

let f: Fixture;
beforeEach(async () => {
  f = await startFixture();
});
afterEach(async () => {
  await f.close();
});

const echoBot = (fixture: Fixture, apiRoot?: string) => createTestBot(fixture.api, (update) => update.reply(`echo ${update.text}`).then(() => undefined), apiRoot);

/** The pause between the end of the n-th getUpdates and the start of the next one. */
const gapAfterCall = (fixture: Fixture, n: number) => {
  const calls = fixture.api.callsTo('getUpdates');
  return calls[n]!.at_ms - calls[n - 1]!.done_ms;
};

describe('getUpdates failures', () => {
  it('retries a 5xx with the default backoff (0.25–0.5 s first) and delivers the update', async () => {
    const user = f.api.createUser();
    f.api.failNext('getUpdates', { error_code: 502 });
    await f.start({ bot: echoBot(f), backoff: undefined });
    f.api.sendText({ from: user, text: 'hi' });

    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    expect(f.api.callsTo('getUpdates')[0]?.response).toMatchObject({ ok: false, error_code: 502 });
    expect(gapAfterCall(f, 1)).toBeGreaterThanOrEqual(240);
    expect(f.logged('getUpdates failed, retrying')[0]).toMatchObject({ level: 40, attempt: 1 });
  });

  it('backs off further after repeated failures', async () => {
    f.api.failNext('getUpdates', { error_code: 500 }, { times: 3 });
    await f.start({ bot: echoBot(f), backoff: { baseMs: 40, maxMs: 1000 } });
    await f.api.waitFor(() => f.logged('getUpdates failed, retrying').length === 3);

    const delays = f.logged('getUpdates failed, retrying').map((line) => line.delayMs as number);
    expect(delays[0]).toBeGreaterThanOrEqual(20);
    expect(delays[0]).toBeLessThanOrEqual(40);
    expect(delays[1]).toBeGreaterThanOrEqual(40);
    expect(delays[2]).toBeGreaterThanOrEqual(80);
    expect(gapAfterCall(f, 2)).toBeGreaterThanOrEqual(delays[1]! - 5);
  });

  it('waits retry_after on a 429', async () => {
    const user = f.api.createUser();
    f.api.failNext('getUpdates', { error_code: 429, retry_after: 1 });
    await f.start({ bot: echoBot(f) });
    f.api.sendText({ from: user, text: 'hi' });

    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    expect(gapAfterCall(f, 1)).toBeGreaterThanOrEqual(950);
    expect(f.logged('telegram asked to slow down')[0]).toMatchObject({ retryAfter: 1 });
  });

  it('logs a 409 conflict as an error and keeps polling, never sooner than a second after one', async () => {
    const user = f.api.createUser();
    f.api.failNext('getUpdates', { error_code: 409 }, { times: 2 });
    // The fixture's 20 ms backoff would retry at once: the floor holds anyway.
    await f.start({ bot: echoBot(f) });
    f.api.sendText({ from: user, text: 'hi' });

    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    expect(f.logged('getUpdates conflict: another instance polls with this token')[0]).toMatchObject({ level: 50 });
    expect(gapAfterCall(f, 1)).toBeGreaterThanOrEqual(950);
    expect(gapAfterCall(f, 2)).toBeGreaterThanOrEqual(950);
  });

  it('tells onConflict of a 409, and stops without another call: Telegram took the offset with the ended poll', async () => {
    const user = f.api.createUser();
    let conflicts = 0;
    const runner = await f.start({ bot: echoBot(f), onConflict: () => (conflicts += 1) });
    f.api.sendText({ from: user, text: 'hi' });
    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    await f.api.waitForCall('getUpdates', { count: 2 });
    // Another consumer polls (a replica that took the lease over): the waiting poll ends with 409.
    const other = await fetch(`${f.api.apiRoot}/bot${f.api.token}/getUpdates?timeout=0`);
    expect(await other.json()).toMatchObject({ ok: true, result: [] });
    await f.api.waitFor(() => conflicts === 1, { description: 'the 409 told' });
    const calls = f.api.callsTo('getUpdates').length;
    await runner.stop(100);
    // A confirming call would end the other consumer's long poll with a 409 in turn.
    expect(f.api.callsTo('getUpdates')).toHaveLength(calls);
  });

  it('retries when the connection drops without an answer', async () => {
    const proxy = await startDroppingProxy(f.api.apiRoot);
    f.onClose(proxy.close);
    const user = f.api.createUser();
    proxy.dropNextPolls(2);
    await f.start({ bot: echoBot(f, proxy.url) });
    f.api.sendText({ from: user, text: 'hi' });

    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    const failures = f.logged('getUpdates failed, retrying');
    expect(failures).toHaveLength(2);
    expect(failures[0]?.err).toMatchObject({ type: 'TelegramHttpError', method: 'getUpdates', message: expect.stringMatching(/^the Bot API could not be reached for getUpdates: /) });
  });

  it('rejects at once when the token is refused at start', async () => {
    const bot = createTelegraf('123456:not-the-token', { apiRoot: f.api.apiRoot });

    await expect(startPolling({ bot, logger: f.logger })).rejects.toMatchObject({ code: 401 });
    expect(f.api.callsTo('getUpdates')).toHaveLength(0);
  });

  it('stops, and rejects `done`, when getUpdates answers 401 later', async () => {
    f.api.failNext('getUpdates', { error_code: 401 });
    const runner = await f.start({ bot: echoBot(f) });

    await expect(runner.done).rejects.toMatchObject({ code: 401 });
    await sleep(200);
    expect(f.api.callsTo('getUpdates')).toHaveLength(1);
    expect(f.logged('getUpdates refused: polling stopped')[0]).toMatchObject({ level: 60 });
    await runner.stop();
  });
});
