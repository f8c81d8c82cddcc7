import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGate, createTestBot, sleep, startFixture } from './fixture.ts';
import type { Fixture } from './fixture.ts';

let f: Fixture;
beforeEach(async () => {
  f = await startFixture();
});
afterEach(async () => {
  await f.close();
});

describe('startPolling', () => {
  it('answers one chat while another chat waits in a slow handler', async () => {
    const slow = f.api.createUser();
    const fast = f.api.createUser();
    const gate = createGate();
    const slowStarted = createGate();
    f.onClose(gate.open);
    const bot = createTestBot(f.api, async (update) => {
      if (update.userId === slow.id) {
        slowStarted.open();
        await gate.opened;
      }
      await update.reply(update.text === '/ping' ? 'pong' : 'done');
    });
    await f.start({ bot });

    f.api.sendText({ from: slow, text: 'something slow' });
    await slowStarted.opened;
    const startedAt = Date.now();
    f.api.sendText({ from: fast, text: '/ping' });
    const reply = await f.api.nextBotMessage(fast.id, { timeoutMs: 1000 });

    expect(reply.text).toBe('pong');
    expect(Date.now() - startedAt).toBeLessThan(500);
    expect(f.api.messagesIn(slow.id)).toEqual([]);
    gate.open();
    expect((await f.api.nextBotMessage(slow.id)).text).toBe('done');
  });

  it('handles the updates of one chat strictly in order while other chats go on', async () => {
    const alice = f.api.createUser();
    const bob = f.api.createUser();
    const gate = createGate();
    f.onClose(gate.open);
    const events: string[] = [];
    const bot = createTestBot(f.api, async (update) => {
      events.push(`start ${update.text}`);
      if (update.text === 'a1') await gate.opened;
      else await sleep(10);
      events.push(`end ${update.text}`);
    });
    await f.start({ bot });

    for (const text of ['a1', 'a2', 'a3']) f.api.sendText({ from: alice, text });
    f.api.sendText({ from: bob, text: 'b1' });
    await f.api.waitFor(() => events.includes('end b1'));
    expect(events.filter((event) => event.includes(' a'))).toEqual(['start a1']);

    gate.open();
    await f.api.waitFor(() => events.includes('end a3'));
    expect(events.filter((event) => event.includes(' a'))).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
  });

  it('runs at most `concurrency` handlers at once and stops fetching while they are busy', async () => {
    const users = Array.from({ length: 10 }, () => f.api.createUser());
    for (const user of users) f.api.sendText({ from: user, text: 'hello' });
    const gate = createGate();
    f.onClose(gate.open);
    let active = 0;
    let maxActive = 0;
    const handled: number[] = [];
    const bot = createTestBot(f.api, async (update) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await gate.opened;
      await sleep(5);
      active--;
      handled.push(update.userId);
    });
    const runner = await f.start({ bot, concurrency: 2 });

    // two running, two more taken and waiting; the other six stay with Telegram
    await f.api.waitFor(() => runner.inFlight() === 4);
    await sleep(150);
    expect(active).toBe(2);
    expect(runner.inFlight()).toBe(4);
    expect(f.api.updatesConsumed()).toBe(false);
    expect(f.api.callsTo('getUpdates')).toHaveLength(1);

    gate.open();
    await f.api.waitFor(() => handled.length === 10);
    expect(maxActive).toBe(2);
    expect(handled.sort()).toEqual(users.map((user) => user.id).sort());
  });

  it('logs a handler that throws, with its update id, and goes on', async () => {
    const user = f.api.createUser();
    const bot = createTestBot(f.api, async (update) => {
      if (update.text === 'boom') throw new Error('handler exploded');
      await update.reply('fine');
    });
    await f.start({ bot });

    f.api.sendText({ from: user, text: 'boom' });
    f.api.sendText({ from: user, text: 'next' });

    expect((await f.api.nextBotMessage(user.id)).text).toBe('fine');
    const [failure] = f.logged('update handler failed');
    expect(failure).toMatchObject({ level: 50, err: { message: 'handler exploded' } });
    expect(failure?.updateId).toEqual(expect.any(Number));
  });
});

describe('Runner.stop', () => {
  it('waits for a handler in flight, then confirms its update', async () => {
    const user = f.api.createUser();
    const gate = createGate();
    const started = createGate();
    f.onClose(gate.open);
    const bot = createTestBot(f.api, async (update) => {
      started.open();
      await gate.opened;
      await update.reply('finished');
    });
    const runner = await f.start({ bot });
    f.api.sendText({ from: user, text: 'work' });
    await started.opened;

    let stopped = false;
    const stopping = runner.stop(5000).then(() => {
      stopped = true;
    });
    await sleep(100);
    expect(stopped).toBe(false);
    expect(runner.inFlight()).toBe(1);

    gate.open();
    await stopping;
    expect(f.api.messagesIn(user.id).map((m) => m.text)).toEqual(['finished']);
    await f.api.waitForIdle();
    const last = f.api.callsTo('getUpdates').at(-1);
    expect(last?.params).toMatchObject({ timeout: 0 });
    await expect(runner.done).resolves.toBeUndefined();
  });

  it('resolves once the grace period is over, and logs what was left running', async () => {
    const user = f.api.createUser();
    const gate = createGate();
    const started = createGate();
    f.onClose(gate.open);
    const bot = createTestBot(f.api, async () => {
      started.open();
      await gate.opened;
    });
    const runner = await f.start({ bot });
    f.api.sendText({ from: user, text: 'one' });
    f.api.sendText({ from: user, text: 'two' });
    await started.opened;
    await f.api.waitFor(() => runner.inFlight() === 2);

    const startedAt = Date.now();
    await runner.stop(150);

    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(140);
    expect(Date.now() - startedAt).toBeLessThan(1000);
    const [warning] = f.logged('stopped before every handler finished');
    expect(warning).toMatchObject({ level: 40, graceMs: 150, running: 1 });
    expect(warning?.lost).toHaveLength(1);
  });

  it('loses and repeats no update across a stop and a new runner', async () => {
    const users = Array.from({ length: 4 }, () => f.api.createUser());
    const sent: string[] = [];
    const seen = new Map<number, number>();
    const handled: string[] = [];
    const bot = createTestBot(f.api, async (update) => {
      seen.set(update.updateId, (seen.get(update.updateId) ?? 0) + 1);
      await sleep(Math.random() * 20);
      handled.push(`${update.chatId}:${update.text}`);
    });
    const send = (round: number) => {
      for (const user of users) {
        const text = `m${round}`;
        f.api.sendText({ from: user, text });
        sent.push(`${user.id}:${text}`);
      }
    };

    const first = await f.start({ bot, concurrency: 3 });
    for (let round = 0; round < 5; round++) {
      send(round);
      await sleep(5);
    }
    await first.stop(2000);
    // sent while no runner polls: the next one must get them
    send(5);
    send(6);
    const second = await f.start({ bot, concurrency: 3 });
    send(7);
    await f.api.waitFor(() => handled.length >= sent.length);
    await second.stop(2000);
    await f.api.waitForIdle();

    expect(handled.sort()).toEqual([...sent].sort());
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    expect(seen.size).toBe(sent.length);
  });
});
