import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BotContext } from '../../src/bot/context.ts';
import { TYPING_AFTER_MS, TYPING_EVERY_MS, TYPING_SETTLE_MS, whileTyping } from '../../src/bot/typing.ts';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

/** A context whose chat actions are recorded, each taking `callMs` to reach Telegram. */
const chat = (callMs = 0, fails = false) => {
  const actions: Array<{ action: string; at: number; done?: number }> = [];
  const ctx = {
    sendChatAction: async (action: string) => {
      const record: { action: string; at: number; done?: number } = { action, at: Date.now() };
      actions.push(record);
      await later(callMs, undefined);
      record.done = Date.now();
      if (fails) throw new Error('Too Many Requests: retry after 5');
      return true;
    },
  } as unknown as BotContext;
  return { ctx, actions };
};

describe('whileTyping', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends no chat action for an answer that comes at once', async () => {
    const { ctx, actions } = chat();
    const result = whileTyping(ctx, later(TYPING_AFTER_MS - 1, 'page'));
    await vi.advanceTimersByTimeAsync(TYPING_AFTER_MS - 1);
    await expect(result).resolves.toBe('page');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(actions).toEqual([]);
  });

  it('shows typing after a moment, and again while Telegram would let it lapse', async () => {
    const { ctx, actions } = chat();
    const result = whileTyping(ctx, later(10_000, 'page'));
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(result).resolves.toBe('page');
    expect(actions.map(({ action, at }) => [action, at])).toEqual([
      ['typing', TYPING_AFTER_MS],
      ['typing', TYPING_AFTER_MS + TYPING_EVERY_MS],
      ['typing', TYPING_AFTER_MS + 2 * TYPING_EVERY_MS],
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(actions).toHaveLength(3);
  });

  it('returns only once a chat action on its way has arrived, so it never lands after the answer', async () => {
    const { ctx, actions } = chat(200);
    let returnedAt: number | undefined;
    const result = whileTyping(ctx, later(TYPING_AFTER_MS + 50, 'page')).then((value) => {
      returnedAt = Date.now();
      return value;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(result).resolves.toBe('page');
    expect(actions[0]?.done).toBe(TYPING_AFTER_MS + 200);
    expect(returnedAt).toBe(TYPING_AFTER_MS + 200);
  });

  it('waits for a slow chat action only so long: the answer is not held by a 429 on "typing…"', async () => {
    const { ctx } = chat(60_000);
    let returnedAt: number | undefined;
    const result = whileTyping(ctx, later(TYPING_AFTER_MS + 50, 'page')).then((value) => {
      returnedAt = Date.now();
      return value;
    });
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(result).resolves.toBe('page');
    expect(returnedAt).toBe(TYPING_AFTER_MS + 50 + TYPING_SETTLE_MS);
  });

  it('does without "typing…" where there is no chat to show it in', async () => {
    const ctx = {
      sendChatAction: () => {
        throw new TypeError('Telegraf: "sendChatAction" isn\'t available for "inline_query"');
      },
    } as unknown as BotContext;
    const result = whileTyping(ctx, later(1_000, 'results'));
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(result).resolves.toBe('results');
  });

  it('ignores a chat action Telegram refuses, and passes on the failure of the work', async () => {
    const { ctx, actions } = chat(0, true);
    const failing = whileTyping(ctx, later(1_000, undefined).then(() => Promise.reject(new Error('portal down'))));
    const settled = failing.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await settled).toMatchObject({ message: 'portal down' });
    expect(actions).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(actions).toHaveLength(1);
  });
});
