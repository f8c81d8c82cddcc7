import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeat } from '../../src/app/repeat.ts';
import { captureLogs } from '../support/logs.ts';

/** A step whose rounds end when the test says so. */
const controlledStep = () => {
  const rounds: Array<PromiseWithResolvers<void>> = [];
  const step = () => {
    const round = Promise.withResolvers<void>();
    rounds.push(round);
    return round.promise;
  };
  return { step, rounds };
};

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('repeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a round every interval, never two at once', async () => {
    const { step, rounds } = controlledStep();
    const rounding = repeat(step, 1_000, pino({ level: 'silent' }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds).toHaveLength(1);
    // The round is still under way at the next tick: no second one beside it.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds).toHaveLength(1);
    rounds[0]!.resolve();
    await settle();
    // The tick it was asked for meanwhile runs as soon as it ended, not a second later.
    expect(rounds).toHaveLength(2);
    rounds[1]!.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds).toHaveLength(3);
    rounds[2]!.resolve();
    await rounding.stop();
  });

  it('asked while a round is under way, runs again at once when it ends, once for any number of asks', async () => {
    const { step, rounds } = controlledStep();
    const rounding = repeat(step, 60_000, pino({ level: 'silent' }));
    rounding.run();
    expect(rounds).toHaveLength(1);
    rounding.run();
    rounding.run();
    rounding.run();
    expect(rounds).toHaveLength(1);
    rounds[0]!.resolve();
    await settle();
    expect(rounds).toHaveLength(2);
    rounds[1]!.resolve();
    await settle();
    // Nobody asked during the second: no third.
    expect(rounds).toHaveLength(2);
    await rounding.stop();
  });

  it('logs a failed round and goes on', async () => {
    const { logger, lines } = captureLogs('info');
    let calls = 0;
    const rounding = repeat(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('the store is gone');
      },
      1_000,
      logger,
    );
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toBe(2);
    expect(lines).toEqual([expect.objectContaining({ msg: 'watches: a round failed', err: expect.objectContaining({ message: 'the store is gone' }) })]);
    await rounding.stop();
  });

  it('stops: waits for the round under way, then starts none, whatever was asked', async () => {
    const { step, rounds } = controlledStep();
    const rounding = repeat(step, 1_000, pino({ level: 'silent' }));
    rounding.run();
    rounding.run();
    let stopped = false;
    const stopping = rounding.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    rounds[0]!.resolve();
    await stopping;
    expect(stopped).toBe(true);
    rounding.run();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rounds).toHaveLength(1);
  });
});
