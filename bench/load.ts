import type { Answer, BotMessage, LeanBotApi } from './bot-api.ts';
import { sampleData } from '../src/demo/sample-data.ts';

// Closed-loop simulated users: each has one action in flight (a lookup or a ◀ ▶ press), waits for
// the bot's answer, and sends the next at once. The latency of an action runs from enqueueing
// its update in the emulator to the bot's answering call for that chat.

const unique = <T>(values: T[]) => [...new Set(values)];
const LOOKUPS: string[] = [
  ...sampleData.orders.map((order) => `/order ${order.SAP_ID}`),
  ...unique(sampleData.specifications.map((spec) => spec.CONTRACT_NUMBER as string)).map((contract) => `/spec ${contract}`),
  '/order status production',
  '/order status production_evaluation',
  '/order material 530х8',
  '/order material труба',
  '/spec material труба',
  '/order date 15.03.2026',
  '/spec type ZSDZMP',
];

export type Sample = { kind: 'lookup' | 'page'; ms: number; outcome: 'answer' | 'alert' | 'timeout' };
export type LoadResult = { samples: Sample[]; durationMs: number; actions: number };

/** A random generator with a seed, so runs are alike. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};

/**
 * `users` actions in flight; with `distinctUsers` (more than `users`), each of those slots takes
 * its turns as a different user, in rotation over that many ids (slot i: ids i, i + users, …), so
 * the bot sees that many distinct users under the same load. With `turnsPerSlot`, each slot
 * stops after that many turns (or at `durationMs`): as many as its ids, and each user acts once.
 */
export const runLoad = async (
  api: LeanBotApi,
  options: {
    users: number;
    durationMs: number;
    firstUserId: number;
    timeoutMs?: number;
    seed?: number;
    ratePerSecond?: number;
    distinctUsers?: number;
    lookupsOnly?: boolean;
    turnsPerSlot?: number;
    /** The turn each slot has reached, read and advanced in place: a run in slices goes on with each slot's rotation. */
    turns?: number[];
  },
): Promise<LoadResult> => {
  const pending = new Map<number, (answer: Answer) => void>();
  api.onAnswer((answer) => {
    const resolve = pending.get(answer.chatId);
    if (resolve) {
      pending.delete(answer.chatId);
      resolve(answer);
    }
  });
  const samples: Sample[] = [];
  const started = performance.now();
  const deadline = started + options.durationMs;
  const next = random(options.seed ?? 7);

  // Paced: each user sends at most one action per interval, so the offered load is the rate (when
  // the bot keeps up) and the latency is the bot's, not the queue's of a saturated closed loop.
  const intervalMs = options.ratePerSecond ? (1000 * options.users) / options.ratePerSecond : 0;
  const distinct = Math.max(options.users, options.distinctUsers ?? 0);
  const turns = options.turns ?? Array.from({ length: options.users }, () => 0);
  /** Each user's last answer, the message its ◀ ▶ presses act on. */
  const lastOf = new Map<number, BotMessage>();
  const slot = async (index: number) => {
    // This slot's ids: index, index + users, … below distinct; no other slot has them.
    const ids = Math.floor((distinct - 1 - index) / options.users) + 1;
    let nextAt = started + (intervalMs * index) / options.users;
    for (let taken = 0; performance.now() < deadline && taken < (options.turnsPerSlot ?? Infinity); taken++) {
      if (intervalMs > 0) {
        // No slot left before the deadline: stop now rather than wait past it, which would
        // stretch the run and understate the rate.
        if (nextAt >= deadline) break;
        const wait = nextAt - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        nextAt = Math.max(nextAt + intervalMs, performance.now());
        if (performance.now() >= deadline) break;
      }
      const turn = turns[index] ?? 0;
      turns[index] = turn + 1;
      const userId = options.firstUserId + index + options.users * (turn % ids);
      const last = lastOf.get(userId);
      const buttons = last?.keyboard.flat() ?? [];
      const dataOf = (text: string) => {
        const button = buttons.find((candidate) => candidate.text === text);
        return button && 'callback_data' in button ? button.callback_data : undefined;
      };
      const forward = dataOf('▶');
      const back = dataOf('◀');
      const roll = next();
      let kind: Sample['kind'] = 'page';
      const answered = new Promise<Answer | undefined>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(userId);
          resolve(undefined);
        }, options.timeoutMs ?? 10_000);
        pending.set(userId, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
      });
      const at = performance.now();
      if (last && forward && roll < 0.55 && !options.lookupsOnly) api.press(userId, last, forward);
      else if (last && back && roll < 0.75 && !options.lookupsOnly) api.press(userId, last, back);
      else {
        kind = 'lookup';
        api.say(userId, LOOKUPS[Math.floor(next() * LOOKUPS.length)] ?? '/order 0007300100');
      }
      const answer = await answered;
      samples.push({ kind, ms: (answer?.at ?? performance.now()) - at, outcome: answer === undefined ? 'timeout' : answer.alert !== undefined ? 'alert' : 'answer' });
      // Lookups only: no press will need the message (and 20,000 users' would weigh on this process).
      if (answer?.message && !options.lookupsOnly) lastOf.set(userId, answer.message);
    }
  };
  await Promise.all(Array.from({ length: options.users }, (_, index) => slot(index)));
  return { samples, durationMs: performance.now() - started, actions: samples.length };
};

export const percentile = (sorted: number[], p: number): number => {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
