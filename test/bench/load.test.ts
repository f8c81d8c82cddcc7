import { describe, expect, it } from 'vitest';
import type { Answer, BotMessage, LeanBotApi } from '../../bench/bot-api.ts';
import { median, spread } from '../../bench/floor-report.ts';
import { runLoad } from '../../bench/load.ts';

/** A Bot API that answers every update on the next tick, recording who acted and overlaps. */
const fakeApi = () => {
  let listener: (answer: Answer) => void = () => undefined;
  const seen = new Set<number>();
  const inFlight = new Set<number>();
  let overlaps = 0;
  let nextId = 1;
  const act = (userId: number) => {
    seen.add(userId);
    if (inFlight.has(userId)) overlaps++;
    inFlight.add(userId);
    const message: BotMessage = { message_id: nextId++, chat: { id: userId, type: 'private', first_name: '' }, text: 'x', keyboard: [[{ text: '▶', callback_data: 'n' }]] };
    setImmediate(() => {
      inFlight.delete(userId);
      listener({ chatId: userId, method: 'sendMessage', at: performance.now(), message });
    });
    return nextId;
  };
  const api = {
    onAnswer: (next: (answer: Answer) => void) => {
      listener = next;
    },
    say: (userId: number) => act(userId),
    press: (userId: number) => act(userId),
  } as unknown as LeanBotApi;
  return { api, seen, overlaps: () => overlaps };
};

describe('runLoad', () => {
  it('acts as the given users only', async () => {
    const fake = fakeApi();
    const result = await runLoad(fake.api, { users: 4, durationMs: 100, firstUserId: 100 });
    expect([...fake.seen].sort()).toEqual([100, 101, 102, 103]);
    expect(result.actions).toBeGreaterThan(20);
  });

  it('rotates its slots over every distinct user, never one user twice at once', async () => {
    const fake = fakeApi();
    const result = await runLoad(fake.api, { users: 4, durationMs: 150, firstUserId: 1000, distinctUsers: 22 });
    expect(fake.seen.size).toBe(22);
    expect(Math.min(...fake.seen)).toBe(1000);
    expect(Math.max(...fake.seen)).toBe(1021);
    expect(fake.overlaps()).toBe(0);
    // Users come back: their second turn may press a button on their last answer.
    expect(result.samples.some((sample) => sample.kind === 'page')).toBe(true);
  });
  it('has each user act once when each slot takes as many turns as it has users', async () => {
    const fake = fakeApi();
    const result = await runLoad(fake.api, { users: 4, durationMs: 5_000, firstUserId: 1000, distinctUsers: 40, turnsPerSlot: 10, lookupsOnly: true });
    expect([fake.seen.size, result.actions, fake.overlaps()]).toEqual([40, 40, 0]);
  });

  it('goes on with each slot’s rotation from one run to the next when given the turns to carry', async () => {
    const turns = [0, 0, 0, 0];
    const first = fakeApi();
    await runLoad(first.api, { users: 4, durationMs: 1_000, firstUserId: 1000, distinctUsers: 40, turnsPerSlot: 2, turns });
    const second = fakeApi();
    await runLoad(second.api, { users: 4, durationMs: 1_000, firstUserId: 1000, distinctUsers: 40, turnsPerSlot: 2, turns });
    const ids = (from: number) => Array.from({ length: 8 }, (_, i) => from + i);
    expect([...first.seen].sort((a, b) => a - b)).toEqual(ids(1000));
    expect([...second.seen].sort((a, b) => a - b)).toEqual(ids(1008));
    expect(turns).toEqual([4, 4, 4, 4]);
  });
});

describe('the floor report', () => {
  it('gives the median and the range of the runs', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(spread([0.3, 0.1, 0.2], 2)).toBe('0.20 (0.10–0.30)');
    expect(spread([5], 0)).toBe('5');
    expect(spread([], 1)).toBe('–');
  });
});
