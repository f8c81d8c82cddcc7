import { stat } from 'node:fs/promises';
import type { Telegram } from 'telegraf';
import { z } from 'zod';
import { TelegramHttpError } from './errors.ts';

// A file sent to a chat: multipart/form-data through the bot's own Bot API client (see
// bot-api-client.ts), the file streamed from disk. So the call keeps the client's error contract,
// the update's deadline and, through the context's Telegram, the 429 retry. Nothing of the file or
// the caption is logged or put in an error.

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
  document: { filename: string; path: string };
};

export const sendDocument = async (telegram: Telegram, { document, ...fields }: DocumentPayload): Promise<DocumentMessage> => {
  const { size } = await stat(document.path);
  if (size === 0 || size > MAX_DOCUMENT_BYTES) throw new DocumentSizeError(size);
  const result = await telegram.callApi('sendDocument', { ...fields, document: { source: document.path, filename: document.filename } });
  const parsed = documentMessageSchema.safeParse(result);
  if (!parsed.success) {
    throw new TelegramHttpError('sendDocument', 200, 'the Bot API answered sendDocument with a result that is not a document message', { cause: parsed.error });
  }
  return parsed.data;
};
