import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from 'telegraf/types';
import { startDroppingProxy } from './dropping-proxy.ts';
import { createTestBot, startFixture, until } from './fixture.ts';
import type { Fixture } from './fixture.ts';

let f: Fixture;
beforeEach(async () => {
  f = await startFixture();
});
afterEach(async () => {
  await f.close();
});

const message = (user: User, text: string) => ({
  message_id: 1,
  date: 1_700_000_000,
  chat: { id: user.id, type: 'private', first_name: user.first_name },
  from: user,
  text,
});

const startBehindProxy = async () => {
  const proxy = await startDroppingProxy(f.api.apiRoot);
  f.onClose(proxy.close);
  const handled: Array<{ id: number; text: string }> = [];
  const bot = createTestBot(f.api, async (update) => void handled.push({ id: update.updateId, text: update.text }), proxy.url);
  return { proxy, handled, bot };
};

const offsets = (proxy: Awaited<ReturnType<typeof startDroppingProxy>>) =>
  proxy.requests.filter((request) => request.method === 'getUpdates').map((request) => request.body.offset as number);

describe('a getUpdates answer that is ok but malformed', () => {
  it('is a transient failure: logged, backed off, polled again', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    proxy.answerNextPolls({ ok: true }, { ok: true, result: null }, { ok: true, result: { update_id: 1 } });
    const runner = await f.start({ bot });
    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'still here' });

    await until(() => handled.some((update) => update.text === 'still here'));
    const failures = f.logged('getUpdates failed, retrying');
    expect(failures).toHaveLength(3);
    expect(failures.map((line) => line.attempt)).toEqual([1, 2, 3]);
    let settled = false;
    void runner.done.finally(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
  });
});

describe('updates at the edge', () => {
  it('handles each update_id once, skips malformed ones and never moves the offset back or wrongly', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    proxy.answerNextPolls(
      {
        ok: true,
        result: [
          { update_id: 5, message: message(user, 'five') },
          { update_id: 5, message: message(user, 'five again') },
          { update_id: '45', message: message(user, 'a string id') },
          { update_id: -1, message: message(user, 'negative') },
          { update_id: 7.5, message: message(user, 'fraction') },
          'not an update',
          null,
        ],
      },
      { ok: true, result: [{ update_id: 3, message: message(user, 'below the offset') }, { update_id: 6, message: message(user, 'six') }] },
    );
    await f.start({ bot });
    f.api.sendText({ from: user, text: 'real' });

    await until(() => handled.some((update) => update.text === 'real'));
    expect(handled.map((update) => update.text)).toEqual(['five', 'six', 'real']);
    const seen = offsets(proxy);
    expect(seen.slice(0, 3)).toEqual([0, 6, 7]);
    expect(seen.every((offset, index) => index === 0 || offset >= seen[index - 1]!)).toBe(true);
    expect(seen.every((offset) => Number.isSafeInteger(offset))).toBe(true);
    expect(f.logged('skipped a malformed update')).toHaveLength(5);
    expect(f.logged('skipped an update already handled')).toHaveLength(2);
  });

  it('backs off when a batch holds nothing but malformed updates, rather than asking again at once', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    proxy.answerNextPolls({ ok: true, result: [{ update_id: 'x' }] }, { ok: true, result: [{ update_id: 'x' }] });
    await f.start({ bot, backoff: { baseMs: 200, maxMs: 400, random: () => 1 } });
    f.api.sendText({ from: user, text: 'real' });

    await until(() => handled.length === 1);
    expect(f.logged('getUpdates failed, retrying').map((line) => line.delayMs)).toEqual([200, 400]);
  });
});

describe('getUpdates 429 with retry_after 0', () => {
  it('waits at least a second rather than polling again at once', async () => {
    const user = f.api.createUser();
    const handled: string[] = [];
    f.api.failNext('getUpdates', { error_code: 429, retry_after: 0 }, { times: 3 });
    await f.start({ bot: createTestBot(f.api, async (update) => void handled.push(update.text)) });
    f.api.sendText({ from: user, text: 'hi' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(f.api.callsTo('getUpdates').length).toBeLessThanOrEqual(3);
  });
});
