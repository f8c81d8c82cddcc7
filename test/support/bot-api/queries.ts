// What callback queries and inline queries share: Telegram accepts one answer, within a window.
import type { Clock } from './clock.ts';
import { badRequest, QUERY_TOO_OLD } from './errors.ts';

export interface AnswerableQuery {
  /** emulated milliseconds when the user sent the query */
  created_ms: number;
  answer: unknown;
}

/** Answered already, or older than the window: Telegram's "query is too old" (its QUERY_ID_INVALID). */
export function assertAnswerable(query: AnswerableQuery, windowMs: number, clock: Clock): void {
  if (query.answer !== undefined || clock.nowMs() - query.created_ms > windowMs) throw badRequest(QUERY_TOO_OLD);
}
