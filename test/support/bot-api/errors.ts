import type { ResponseParameters } from 'telegraf/types';

/** A failure answered to the bot exactly as api.telegram.org would: HTTP status = error_code. */
export class BotApiError extends Error {
  readonly errorCode: number;
  readonly description: string;
  readonly parameters: ResponseParameters | undefined;

  constructor(errorCode: number, description: string, parameters?: ResponseParameters) {
    super(`${errorCode}: ${description}`);
    this.name = 'BotApiError';
    this.errorCode = errorCode;
    this.description = description;
    this.parameters = parameters;
  }
}

export const badRequest = (detail: string): BotApiError => new BotApiError(400, `Bad Request: ${detail}`);

export const unauthorized = (): BotApiError => new BotApiError(401, 'Unauthorized');

export const forbidden = (detail: string): BotApiError => new BotApiError(403, `Forbidden: ${detail}`);

export const notFound = (): BotApiError => new BotApiError(404, 'Not Found');

export const conflict = (detail: string): BotApiError => new BotApiError(409, `Conflict: ${detail}`);

export const tooManyRequests = (retryAfter: number): BotApiError =>
  new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });

export const CHAT_NOT_FOUND = 'chat not found';
export const QUERY_TOO_OLD = 'query is too old and response timeout expired or query ID is invalid';
export const NOT_MODIFIED =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
