import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../src/telegram/telegraf/core.ts';
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

// Just below the emulator's first update_id, so that its updates come next and within a plausible jump.
const B = 699_999_990;

const skipLines = () => f.logged('skipped updates');

describe('updates at the edge', () => {
  it('handles each update_id once, skips malformed ones and never moves the offset back or wrongly', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    proxy.answerNextPolls(
      {
        ok: true,
        result: [
          { update_id: B + 5, message: message(user, 'five') },
          { update_id: B + 5, message: message(user, 'five again') },
          { update_id: '45', message: message(user, 'a string id') },
          { update_id: -1, message: message(user, 'negative') },
          { update_id: 7.5, message: message(user, 'fraction') },
          'not an update',
          null,
        ],
      },
      { ok: true, result: [{ update_id: B + 3, message: message(user, 'below the offset') }, { update_id: B + 6, message: message(user, 'six') }] },
    );
    await f.start({ bot });
    f.api.sendText({ from: user, text: 'real' });

    await until(() => handled.some((update) => update.text === 'real'));
    expect(handled.map((update) => update.text)).toEqual(['five', 'six', 'real']);
    const seen = offsets(proxy);
    expect(seen.slice(0, 3)).toEqual([0, B + 6, B + 7]);
    expect(seen.every((offset, index) => index === 0 || offset >= seen[index - 1]!)).toBe(true);
    expect(seen.every((offset) => Number.isSafeInteger(offset))).toBe(true);
    // One summary line, counts only: the second batch falls within the quiet interval.
    expect(skipLines()).toHaveLength(1);
    expect(skipLines()[0]).toMatchObject({ level: 40, malformed: 5, repeated: 1, implausible: 0 });
    expect(JSON.stringify(f.logs)).not.toMatch(/a string id|not an update|five again/);
  });

  it('backs off when a batch holds nothing but malformed updates, rather than asking again at once', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    proxy.answerNextPolls({ ok: true, result: [{ update_id: 'x' }] }, { ok: true, result: [{ update_id: 'x' }] });
    await f.start({ bot, backoff: { baseMs: 200, maxMs: 400, random: () => 1 } });
    f.api.sendText({ from: user, text: 'real' });

    await until(() => handled.length === 1);
    const at = proxy.requests.filter((request) => request.method === 'getUpdates').map((request) => request.at);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(190);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(390);
    expect(skipLines()).toHaveLength(1);
    expect(skipLines()[0]).toMatchObject({ malformed: 1, attempt: 1, delayMs: 200 });
  });

  it('keeps polling after an update whose payload is null', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    proxy.answerNextPolls({ ok: true, result: [{ update_id: B + 8, message: null }] });
    const runner = await f.start({ bot });
    let settled = false;
    void runner.done.finally(() => (settled = true));
    f.api.sendText({ from: user, text: 'after the null' });

    await until(() => handled.some((update) => update.text === 'after the null'));
    expect(settled).toBe(false);
    expect(f.logged('getUpdates refused: polling stopped')).toEqual([]);
    expect(offsets(proxy).slice(0, 2)).toEqual([0, B + 9]);
  });

  it('backs off and logs little when a server repeats updates already handled, ignoring the offset', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    proxy.answerPollsForever({ ok: true, result: [{ update_id: B + 5, message: message(user, 'five') }] });
    // The runner's waits, recorded: the fifth holds until the runner stops.
    const waits: number[] = [];
    const pause = async (ms: number, signal: AbortSignal) => {
      waits.push(ms);
      if (waits.length >= 5) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    };
    await f.start({ bot, backoff: { baseMs: 100, maxMs: 400, random: () => 1 }, pause });

    await until(() => waits.length === 5);
    expect(waits).toEqual([100, 200, 400, 400, 400]);
    expect(handled.map((update) => update.text)).toEqual(['five']);
    expect(offsets(proxy)).toHaveLength(6);
    expect(f.logs.filter((line) => (line.level as number) >= 40)).toHaveLength(1);
    expect(skipLines()[0]).toMatchObject({ repeated: 1, attempt: 1, delayMs: 100 });
  });

  it('refuses an update_id implausibly far above the offset, logged once', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    proxy.answerNextPolls(
      { ok: true, result: [{ update_id: B + 5, message: message(user, 'five') }] },
      { ok: true, result: [{ update_id: B + 50_000_000, message: message(user, 'far') }] },
    );
    await f.start({ bot });
    f.api.sendText({ from: user, text: 'real' });

    await until(() => handled.some((update) => update.text === 'real'));
    expect(handled.map((update) => update.text)).toEqual(['five', 'real']);
    await until(() => offsets(proxy).includes(700_000_002));
    expect(Math.max(...offsets(proxy))).toBe(700_000_002);
    expect(skipLines()).toHaveLength(1);
    expect(skipLines()[0]).toMatchObject({ implausible: 1, offset: B + 6 });
  });

  it('takes a far jump that Telegram sends again, as after a week without updates', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    const far = { ok: true, result: [{ update_id: B + 50_000_000, message: message(user, 'after a quiet week') }] };
    proxy.answerNextPolls({ ok: true, result: [{ update_id: B + 5, message: message(user, 'five') }] }, far, far);
    await f.start({ bot, backoff: { baseMs: 10, maxMs: 20 } });
    await until(() => handled.some((update) => update.text === 'after a quiet week'));
    expect(handled.map((update) => update.text)).toEqual(['five', 'after a quiet week']);
    await until(() => offsets(proxy).includes(B + 50_000_001));
  });

  it('refuses an update_id beyond the 32 bits the Bot API numbers updates with', async () => {
    const { proxy, handled, bot } = await startBehindProxy();
    const user = f.api.createUser();
    const huge = { ok: true, result: [{ update_id: Number.MAX_SAFE_INTEGER, message: message(user, 'huge') }] };
    proxy.answerNextPolls(huge, huge);
    await f.start({ bot, backoff: { baseMs: 10, maxMs: 20 } });
    f.api.sendText({ from: user, text: 'real' });
    await until(() => handled.some((update) => update.text === 'real'));
    expect(handled.map((update) => update.text)).toEqual(['real']);
    expect(Math.max(...offsets(proxy))).toBeLessThan(2 ** 31);
  });
});

describe('getUpdates 429 with retry_after 0', () => {
  it('waits at least a second rather than polling again at once', async () => {
    const user = f.api.createUser();
    const handled: string[] = [];
    f.api.failNext('getUpdates', { error_code: 429, retry_after: 0 }, { times: 3 });
    const waits: number[] = [];
    await f.start({ bot: createTestBot(f.api, async (update) => void handled.push(update.text)), pause: async (ms) => void waits.push(ms) });
    f.api.sendText({ from: user, text: 'hi' });
    await until(() => handled.includes('hi'));
    expect(waits).toEqual([1000, 1000, 1000]);
    expect(f.api.callsTo('getUpdates').filter((call) => call.response.ok === false)).toHaveLength(3);
  });
});
