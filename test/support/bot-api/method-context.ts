import type { Params } from './params.ts';
import type { EmulatorState } from './state.ts';

export interface MethodContext {
  readonly params: Params;
  readonly state: EmulatorState;
  /** aborted when the client goes away before the answer (Telegraf aborting its long poll) */
  readonly signal: AbortSignal;
  /** records which chat the call addressed, so tests can look calls up per chat */
  noteChat(chatId: number): void;
}

/** One Bot API method: returns the `result`, or throws a BotApiError. */
export type MethodHandler = (context: MethodContext) => unknown;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
