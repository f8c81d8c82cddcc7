import { openAsBlob } from 'node:fs';
import { STATUS_CODES } from '../http/node-http.ts';
import { basename } from 'node:path';
import { FormData, Pool } from 'undici';
import { TelegramError, type CallApi } from './telegraf/core.ts';
import { TelegramHttpError } from './errors.ts';
import { callWithinDeadline } from './update-scope.ts';

// Every Bot API call of the bot goes through here: JSON over one undici connection pool to
// TELEGRAM_API_ROOT. Telegraf's own client (node-fetch over http.Agent, a URL parse and a header
// object per call) cost half of the bot's CPU time at 1,000 updates a second (BENCHMARKS.md).
// Same contract as Telegraf's `callApi`: the result, or a TelegramError carrying Telegram's
// error_code, description and parameters (retry_after); null and undefined fields are left out.
// A failed exchange is a TelegramHttpError. An error names the method only, never the payload:
// that holds users' text and, for setWebhook, the webhook secret. Within an update's handling its
// deadline applies (src/telegram/update-scope.ts). A payload naming a file by path, as Telegraf's
// InputFile does (`{ source: '/tmp/x.xlsx', filename: 'x.xlsx' }`, here with an optional
// `contentType`), goes as multipart/form-data, the file streamed from disk
// (src/telegram/send-document.ts).

type Envelope = { ok: boolean; result?: unknown; error_code: number; description: string; parameters?: { retry_after?: number; migrate_to_chat_id?: number } };

/** How every answer that says ok begins, as Telegram writes it: enough to know a call went through. */
const OK_ANSWER = Buffer.from('{"ok":true');
const saysOk = (bytes: Uint8Array): boolean => bytes.length > OK_ANSWER.length && OK_ANSWER.every((byte, index) => bytes[index] === byte);

const omitEmpty = (_key: string, value: unknown) => (value == null ? undefined : value);

/**
 * The payload as JSON without its null fields (undefined ones JSON leaves out itself). A replacer
 * costs a call per value, so it runs only when the plain JSON shows a null: rarely, since Telegraf
 * passes absent options as undefined (a ":null" inside a text also takes the slow path, harmlessly).
 */
export const toJsonBody = (payload: object): string => {
  const json = JSON.stringify(payload);
  return json.includes(':null') ? JSON.stringify(payload, omitEmpty) : json;
};

/** A file on disk to upload; without `contentType` its part says application/octet-stream. */
type FileByPath = { source: string; filename?: string; contentType?: string };

const isFileByPath = (value: unknown): value is FileByPath =>
  typeof value === 'object' && value !== null && 'source' in value && typeof value.source === 'string';

const uploadsFile = (payload: object): boolean => {
  for (const key in payload) if (isFileByPath((payload as Record<string, unknown>)[key])) return true;
  return false;
};

/** The payload as a multipart form, each file a lazy, disk-backed Blob. */
const uploadForm = async (payload: object): Promise<FormData> => {
  const fields = Object.entries(payload).filter(([, value]) => value != null);
  const form = new FormData();
  for (const [key, value] of fields) {
    if (isFileByPath(value)) {
      const file = await openAsBlob(value.source, value.contentType === undefined ? {} : { type: value.contentType });
      form.append(key, file, value.filename ?? basename(value.source));
    } else form.append(key, typeof value === 'object' ? toJsonBody(value) : String(value));
  }
  return form;
};

export type BotApiClientOptions = {
  apiRoot: string;
  token: string;
  /** Told of each call Telegram answered 429 (a metric). */
  onRateLimited?: (method: string) => void;
};

export const createBotApiClient = ({ apiRoot, token, onRateLimited }: BotApiClientOptions) => {
  // Resolved as Telegraf resolves it, so a root with a path ("https://host/tg/") keeps its path.
  const base = new URL(`./bot${token}/`, apiRoot);
  const pool = new Pool(base.origin, { keepAliveTimeout: 30_000 });

  const exchange = async (method: string, payload: object, signal: AbortSignal | undefined) => {
    // Built per attempt: a retried upload reads its file again. undici sets the multipart content type.
    const form = uploadsFile(payload) ? await uploadForm(payload) : undefined;
    try {
      return await pool.request({
        path: `${base.pathname}${method}`,
        method: 'POST',
        // JSON as bytes: encoded once, where a string body is measured and then encoded again.
        ...(form === undefined ? { headers: { 'content-type': 'application/json' }, body: Buffer.from(toJsonBody(payload)) } : { body: form }),
        ...(signal && { signal }),
      });
    } catch (error) {
      // Aborted by its caller (polling stopping, the update's deadline): the caller knows why.
      if (signal?.aborted === true) throw error;
      throw new TelegramHttpError(method, undefined, `the Bot API could not be reached for ${method}: ${(error as Error).message}`, { cause: error });
    }
  };

  const send = async (method: string, payload: object, signal: AbortSignal | undefined, resultUnused: boolean): Promise<unknown> => {
    const { statusCode, body } = await exchange(method, payload, signal);
    if (statusCode >= 500) {
      await body.dump();
      throw new TelegramHttpError(method, statusCode, `the Bot API answered ${method} with HTTP ${statusCode} ${STATUS_CODES[statusCode] ?? 'Server Error'}`);
    }
    // A result nobody reads (a view sent): an answer that says ok is not decoded; any other is, as always.
    const bytes = resultUnused && statusCode === 200 ? await body.bytes() : undefined;
    if (bytes !== undefined && saysOk(bytes)) return true;
    const text = bytes === undefined ? await body.text() : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    let data: Envelope;
    try {
      data = JSON.parse(text) as Envelope;
    } catch (error) {
      throw new TelegramHttpError(method, statusCode, `the Bot API answered ${method} with HTTP ${statusCode} and a body that is not JSON`, { cause: error });
    }
    if (!data.ok) {
      if (data.error_code === 429) onRateLimited?.(method);
      throw new TelegramError(data, { method });
    }
    return data.result;
  };

  /** Telegraf's callApi; `resultUnused` (callBotApiForEffect): the caller reads no result, only success or the error. */
  const callApi = (method: string, payload: object = {}, { signal, resultUnused = false }: { signal?: AbortSignal; resultUnused?: boolean } = {}): Promise<unknown> =>
    callWithinDeadline(method, signal, (combined) => send(method, payload, combined, resultUnused));

  return {
    callApi: callApi as unknown as CallApi,
    /** Closes the connections; calls made after this fail. */
    close: () => pool.close(),
  };
};
