import { stat } from 'node:fs/promises';
import { callSignal, TelegramError, type Telegram } from './telegraf/core.ts';
import { z } from 'zod';
import { TelegramHttpError } from './errors.ts';

// A file sent to a chat: multipart/form-data through the bot's own Bot API client (see
// bot-api-client.ts), the file streamed from disk. So the call keeps the client's error contract,
// the update's deadline and, through the context's Telegram, the 429 retry. An upload has a
// deadline of its own, scaled by the file's size, and its caller's signal gives it up. Nothing of
// the file or the caption is logged or put in an error.

/** Telegram's limit for a file a bot uploads. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

/** A file refused before uploading: empty, or over Telegram's 50 MB. */
export class DocumentSizeError extends Error {
  readonly size: number;
  constructor(size: number) {
    super(size === 0 ? 'the document is empty: Telegram refuses empty files' : `the document has ${size} bytes, over Telegram's limit of ${MAX_DOCUMENT_BYTES}`);
    this.name = 'DocumentSizeError';
    this.size = size;
  }
}

/** An upload gets this long to be answered, plus a second for every UPLOAD_BYTES_PER_SECOND of the file. */
export const UPLOAD_BASE_MS = 30_000;
/** About 2 Mbit/s: an uplink slower than that is not waited for. */
export const UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/**
 * How long an upload of `bytes` may take before it is given up: Telegram that never answers would
 * otherwise hold it for undici's 300 s header timeout. 1 MB: 34 s; 50 MB: 230 s.
 */
export const uploadDeadlineMs = (bytes: number): number => UPLOAD_BASE_MS + Math.ceil((bytes / UPLOAD_BYTES_PER_SECOND) * 1000);

/** The upload was not answered within its deadline (uploadDeadlineMs): given up, the connection closed. */
export class DocumentUploadTimeoutError extends TelegramHttpError {
  readonly size: number;
  readonly timeoutMs: number;
  constructor(size: number, timeoutMs: number, options?: ErrorOptions) {
    super('sendDocument', undefined, `the Bot API did not answer the upload of ${size} bytes within ${timeoutMs} ms`, options);
    this.name = 'DocumentUploadTimeoutError';
    this.size = size;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The Bot API server, or a proxy in front of it (a small body limit before a self-hosted one),
 * refused the file as too large (HTTP 413): sending it again cannot help.
 */
export class DocumentTooLargeForServerError extends Error {
  readonly size: number;
  constructor(size: number, options?: ErrorOptions) {
    super(`the Bot API server refused the document of ${size} bytes as too large (HTTP 413)`, options);
    this.name = 'DocumentTooLargeForServerError';
    this.size = size;
  }
}

/** 413 as Telegram's JSON (TelegramError) or as a proxy's page (not JSON: TelegramHttpError). */
const isTooLarge = (error: unknown): boolean =>
  (error instanceof TelegramError && error.code === 413) || (error instanceof TelegramHttpError && error.status === 413);

const documentMessageSchema = z.object({
  message_id: z.number(),
  chat: z.object({ id: z.number(), type: z.string() }),
  message_thread_id: z.number().optional(),
  document: z.object({
    file_id: z.string(),
    file_unique_id: z.string(),
    file_name: z.string().optional(),
    mime_type: z.string().optional(),
    file_size: z.number().optional(),
  }),
  caption: z.string().optional(),
});

export type DocumentMessage = z.infer<typeof documentMessageSchema>;

export type DocumentPayload = {
  chat_id: number;
  message_thread_id?: number;
  reply_parameters?: { message_id: number; allow_sending_without_reply?: boolean };
  caption?: string;
  parse_mode?: 'HTML';
  disable_notification?: boolean;
  /** `type`: the file's MIME type, for the upload to declare. */
  document: { filename: string; path: string; type?: string };
};

export type SendDocumentOptions = {
  /** Gives the upload up (the bot stopping): rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The upload's own deadline for a file of `bytes`; default uploadDeadlineMs. */
  deadlineMs?: (bytes: number) => number;
};

export const sendDocument = async (
  telegram: Telegram,
  { document, ...fields }: DocumentPayload,
  { signal, deadlineMs = uploadDeadlineMs }: SendDocumentOptions = {},
): Promise<DocumentMessage> => {
  const { size } = await stat(document.path);
  if (size === 0 || size > MAX_DOCUMENT_BYTES) throw new DocumentSizeError(size);
  const timeoutMs = deadlineMs(size);
  const deadline = AbortSignal.timeout(timeoutMs);
  const file = { source: document.path, filename: document.filename, ...(document.type === undefined ? {} : { contentType: document.type }) };
  let result: unknown;
  try {
    const either = signal === undefined ? deadline : AbortSignal.any([signal, deadline]);
    result = await telegram.callApi('sendDocument', { ...fields, document: file }, { signal: callSignal(either) });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    if (deadline.aborted) throw new DocumentUploadTimeoutError(size, timeoutMs, { cause: error });
    if (isTooLarge(error)) throw new DocumentTooLargeForServerError(size, { cause: error });
    throw error;
  }
  const parsed = documentMessageSchema.safeParse(result);
  if (!parsed.success) {
    throw new TelegramHttpError('sendDocument', 200, 'the Bot API answered sendDocument with a result that is not a document message', { cause: parsed.error });
  }
  return parsed.data;
};
