// The record of every request the bot made, and the errors tests queue up with failNext.
import type { ResponseParameters } from 'telegraf/types';
import { BotApiError } from './errors.ts';
import type { BotApiVersion } from './versions.ts';

export type ApiResponse =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string; parameters?: ResponseParameters };

export interface ApiCall {
  /** 1-based position in arrival order */
  seq: number;
  /** canonical method name ("sendMessage"), or the path segment as requested when unknown */
  method: string;
  /** parameters as received; JSON-valued fields (reply_markup, entities, ...) decoded */
  params: Record<string, unknown>;
  /** what the bot got back; for a request the bot aborted (its long poll on stop), a 499 it never saw */
  response: ApiResponse;
  /** the chat the call addressed, once resolved to a known chat */
  chatId: number | undefined;
  /** emulated milliseconds when the request arrived and when it was answered */
  at_ms: number;
  done_ms: number;
  /** answered by failNext rather than by the emulated method */
  injected: boolean;
  aborted: boolean;
  /** fields the server ignored, being older than they are (startBotApi's botApiVersion); `params` holds them as sent */
  ignored: Array<{ field: string; since: BotApiVersion }>;
}

export interface InjectedFailure {
  error_code: number;
  /** defaults to Telegram's usual wording for the code, e.g. "Too Many Requests: retry after N" */
  description?: string;
  retry_after?: number;
  parameters?: ResponseParameters;
}

export interface FailureMatch {
  /** only calls addressing this chat_id */
  chatId?: number;
  /** how many matching calls fail; default 1 */
  times?: number;
}

const DEFAULT_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden: bot was blocked by the user',
  404: 'Not Found',
  409: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
  413: 'Request Entity Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
};

const JSON_FIELDS = [
  'reply_markup', 'entities', 'caption_entities', 'reply_parameters', 'link_preview_options', 'commands', 'scope', 'allowed_updates', 'results',
  'button', 'rich_message',
];

interface QueuedFailure {
  method: string;
  error: BotApiError;
  chatId: number | undefined;
  remaining: number;
}

export class CallLog {
  readonly calls: ApiCall[] = [];
  /** requests being answered right now, not counting long polls */
  inFlight = 0;
  private nextSeq = 1;
  private failures: QueuedFailure[] = [];

  addFailure(method: string, failure: InjectedFailure, match: FailureMatch = {}): void {
    const retryAfter = failure.retry_after ?? (failure.error_code === 429 ? 5 : undefined);
    const description =
      failure.description ??
      (failure.error_code === 429 ? `Too Many Requests: retry after ${retryAfter}` : (DEFAULT_DESCRIPTIONS[failure.error_code] ?? 'Error'));
    const parameters = retryAfter === undefined ? failure.parameters : { ...failure.parameters, retry_after: retryAfter };
    this.failures.push({
      method: method.toLowerCase(),
      error: new BotApiError(failure.error_code, description, parameters),
      chatId: match.chatId,
      remaining: match.times ?? 1,
    });
  }

  /** The queued failure for this call, if any, counted as used. */
  takeFailure(method: string, rawChatId: unknown): BotApiError | undefined {
    const chatId = rawChatId === undefined ? undefined : Number(rawChatId);
    const failure = this.failures.find(
      (f) => f.method === method.toLowerCase() && (f.chatId === undefined || f.chatId === chatId),
    );
    if (failure === undefined) return undefined;
    failure.remaining--;
    if (failure.remaining <= 0) this.failures = this.failures.filter((f) => f !== failure);
    return failure.error;
  }

  pendingFailures(): number {
    return this.failures.length;
  }

  startSeq(): number {
    return this.nextSeq++;
  }

  record(call: ApiCall): void {
    this.calls.push({ ...call, params: decodeJsonFields(call.params) });
    this.calls.sort((a, b) => a.seq - b.seq);
  }

  /** The last calls in one line each, for timeout messages; empty long polls are left out. */
  describeRecent(count = 15): string {
    const interesting = this.calls.filter(
      (c) => !(c.method === 'getUpdates' && (c.aborted || (c.response.ok && Array.isArray(c.response.result) && c.response.result.length === 0))),
    );
    const lines = interesting.slice(-count).map((c) => {
      const params = truncate(JSON.stringify(c.params), 200);
      const outcome = c.response.ok
        ? 'ok'
        : `${c.response.error_code} ${c.response.description}${c.injected ? ' (injected)' : ''}`;
      return `  #${c.seq} ${c.method} ${params} → ${outcome}`;
    });
    return lines.length === 0 ? '  (no calls)' : lines.join('\n');
  }
}

function decodeJsonFields(params: Record<string, unknown>): Record<string, unknown> {
  const decoded = { ...params };
  for (const field of JSON_FIELDS) {
    const value = decoded[field];
    if (typeof value !== 'string') continue;
    try {
      decoded[field] = JSON.parse(value) as unknown;
    } catch {
      // left as sent: the method already answered that it could not parse it
    }
  }
  return decoded;
}

const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
