import { describe, expect, it } from 'vitest';
import { floodLimit } from '../../../src/bot/middleware/flood-limit.ts';
import { createMemoryLimits } from '../../../src/store/sqlite/limits.ts';
import type { LimitStore } from '../../../src/store/store.ts';
import { createChats, createClock, createLogs, unreachableLimits } from './access-flood-updates.ts';

const SLOW_DOWN = 'Too many requests in a row. Please wait a minute and try again.';

const setUp = (limits: LimitStore = createMemoryLimits(), perMinute = 3) => {
  const clock = createClock();
  const logs = createLogs();
  const chats = createChats();
  const limit = floodLimit({ perMinute, limits, logger: logs.logger, now: clock.now });
  return { clock, logs, chats, limit, send: (update: Parameters<typeof chats.send>[1]) => chats.send([limit], update) };
};

describe('floodLimit', () => {
  it('counts each identifier of a pasted text as one query: as many as fit the minute go on, "slow down" once when none does (issue 30)', async () => {
    const { chats, limit } = setUp(createMemoryLimits(), 5);
    const taken: number[] = [];
    const paste = (from: number, count: number, quiet = false) =>
      chats.send([limit, async (ctx) => void taken.push(await ctx.takeQueries(count, { quiet }))], { from, text: 'pasted numbers' });
    await paste(1, 3);
    // Two of four fit: they go on, and the answer says the other two were not looked up.
    await paste(1, 4);
    expect(chats.said).toEqual([]);
    await paste(1, 2);
    await paste(1, 1);
    await paste(2, 5);
    await paste(2, 1);
    expect(taken).toEqual([3, 2, 0, 0, 5, 0]);
    expect(chats.said).toEqual([{ chatId: 2, text: SLOW_DOWN }]);
    const quiet = setUp(createMemoryLimits(), 1);
    const none: number[] = [];
    const chatter = () => quiet.chats.send([quiet.limit, async (ctx) => void none.push(await ctx.takeQueries(2, { quiet: true }))], { from: 1, text: 'chatter' });
    await chatter();
    await chatter();
    expect(none).toEqual([1, 0]);
    expect(quiet.chats.said).toEqual([]);
  });

  it('lets pasted numbers through when the store does not answer', async () => {
    const { chats, limit } = setUp(unreachableLimits());
    const taken: number[] = [];
    await chats.send([limit, async (ctx) => void taken.push(await ctx.takeQueries(4))], { from: 1, text: 'pasted' });
    expect(taken).toEqual([4]);
  });

  it('serves perMinute commands a minute, says "slow down" once, then nothing until the minute is over', async () => {
    const { clock, chats, send } = setUp();
    for (let i = 0; i < 6; i += 1) await send({ from: 1, text: '/order 1' });
    expect(chats.served()).toBe(3);
    expect(chats.said).toEqual([{ chatId: 1, text: SLOW_DOWN }]);

    clock.advance(59_999);
    await send({ from: 1, text: '/order 1' });
    expect(chats.served()).toBe(3);
    clock.advance(1);
    await send({ from: 1, text: '/order 1' });
    expect(chats.served()).toBe(4);
    expect(chats.said).toHaveLength(1);
  });

  it("counts a user's queries under the user's id itself, a number, in the store", async () => {
    const memory = createMemoryLimits();
    const hits: unknown[] = [];
    const { send } = setUp({ ...memory, hit: (userId, now, windowMs) => (hits.push(userId), memory.hit(userId, now, windowMs)) });
    await send({ from: 42, text: '/order 1' });
    expect(hits).toEqual([42]);
  });

  it('counts each user on their own', async () => {
    const { chats, send } = setUp();
    for (let i = 0; i < 4; i += 1) await send({ from: 1, text: '/order 1' });
    for (let i = 0; i < 3; i += 1) await send({ from: 2, text: '/order 1' });
    expect(chats.served()).toBe(6);
    expect(chats.said.map((said) => said.chatId)).toEqual([1]);
  });

  it('answers every press past the limit: the first with the warning, the rest silently', async () => {
    const { chats, send } = setUp();
    for (let i = 0; i < 6; i += 1) await send({ from: 1, press: true });
    expect(chats.served()).toBe(3);
    expect(chats.answers).toEqual([
      { text: SLOW_DOWN, alert: true },
      { text: undefined, alert: false },
      { text: undefined, alert: false },
    ]);
  });

  it('answers inline queries past the limit with no results', async () => {
    const { chats, send } = setUp();
    for (let i = 0; i < 5; i += 1) await send({ from: 1, inline: true });
    expect(chats.served()).toBe(3);
    expect(chats.inlineAnswers()).toBe(2);
    expect(chats.said).toEqual([]);
  });

  it('does not count what cannot reach the portal: text, commands to another bot', async () => {
    const { chats, send } = setUp();
    const group = { id: -100, type: 'supergroup' } as const;
    for (let i = 0; i < 10; i += 1) await send({ from: 1, text: 'hello' });
    for (let i = 0; i < 10; i += 1) await send({ from: 1, chat: group, text: '/order@other_bot 1' });
    await send({ from: 1, chat: group, text: '/order@Order_Lookup_Bot 1' });
    expect(chats.served()).toBe(21);
    expect(chats.said).toEqual([]);
  });

  it('shares the count between replicas on one store: the limit once, not once per replica', async () => {
    const limits = createMemoryLimits();
    const one = setUp(limits);
    const two = setUp(limits);
    await one.send({ from: 1, text: '/order 1' });
    await two.send({ from: 1, text: '/order 1' });
    await one.send({ from: 1, text: '/order 1' });
    await two.send({ from: 1, text: '/order 1' });
    await one.send({ from: 1, text: '/order 1' });
    expect(one.chats.served() + two.chats.served()).toBe(3);
    expect(two.chats.said).toEqual([{ chatId: 1, text: SLOW_DOWN }]);
    expect(one.chats.said).toEqual([]);
  });
});

describe('floodLimit when the store does not answer', () => {
  it('lets every query through, and warns once a minute, not once per update', async () => {
    const { clock, chats, logs, send } = setUp(unreachableLimits(), 1);
    for (let i = 0; i < 5; i += 1) await send({ from: 1, text: '/order 1' });
    await send({ from: 2, press: true });
    expect(chats.served()).toBe(6);
    expect(chats.said).toEqual([]);
    expect(chats.answers).toEqual([]);
    expect(logs.warnings()).toEqual([expect.objectContaining({ msg: expect.stringContaining('flood limit cannot reach the store') })]);
    clock.advance(60_000);
    await send({ from: 1, text: '/order 1' });
    expect(logs.warnings()).toHaveLength(2);
  });

  it('lets a bug through to the error boundary: not every error is a store that went away', async () => {
    const { chats, send } = setUp(unreachableLimits(new TypeError('limits.hit is broken')));
    await expect(send({ from: 1, text: '/order 1' })).rejects.toThrow('limits.hit is broken');
    expect(chats.served()).toBe(0);
  });
});
