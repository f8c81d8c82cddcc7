// The HTTP face of the emulator: /bot<token>/<method>, answered like api.telegram.org.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiCall, ApiResponse, CallLog } from './calls.ts';
import { BotApiError, notFound, unauthorized } from './errors.ts';
import { TOO_LARGE_PAGE, type Front } from './front.ts';
import { findMethod } from './methods.ts';
import { Params, readParams, UploadedFile } from './params.ts';
import type { RawParams } from './params.ts';
import type { EmulatorState } from './state.ts';
import { atLeast, CURRENT_BOT_API_VERSION, dropUnknownFields, METHODS_SINCE } from './versions.ts';

export interface HttpServer {
  port: number;
  close(): Promise<void>;
}

const CLIENT_CLOSED: ApiResponse = { ok: false, error_code: 499, description: 'Client Closed Request' };

const TOO_LARGE: ApiResponse = { ok: false, error_code: 413, description: 'Request Entity Too Large' };

export async function startHttpServer(state: EmulatorState, log: CallLog, front: Front): Promise<HttpServer> {
  const server = createServer((req, res) => {
    if (front.refuses(req.headers['content-length'])) refuseAsProxy(log, state, req, res);
    else void handle(state, log, front, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        state.updates.release();
        front.releaseAll();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A proxy's 413 for a body over its limit: nginx's HTML page, once the body is read and dropped
 * (answered before, the close could cut the client's write: EPIPE, where nginx's lingering close
 * lets the client read the answer). Recorded as an injected failure: the Bot API never saw the call.
 */
function refuseAsProxy(log: CallLog, state: EmulatorState, req: IncomingMessage, res: ServerResponse): void {
  const seq = log.startSeq();
  const atMs = state.clock.nowMs();
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = findMethod(/\/([^/]*)$/.exec(url.pathname)?.[1] ?? '')?.name ?? url.pathname;
  req.resume();
  req.once('end', () => {
    res.writeHead(413, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(TOO_LARGE_PAGE) });
    res.end(TOO_LARGE_PAGE);
    log.record({ seq, method, params: {}, response: TOO_LARGE, chatId: undefined, at_ms: atMs, done_ms: state.clock.nowMs(), injected: true, aborted: false, ignored: [] });
    state.feed.emit();
  });
}

async function handle(state: EmulatorState, log: CallLog, front: Front, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const seq = log.startSeq();
  const atMs = state.clock.nowMs();
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const match = /^\/bot([^/]*)\/([^/]*)$/.exec(url.pathname);
  let method = match?.[2] ?? url.pathname;
  let params: RawParams = {};
  let chatId: number | undefined;
  let injected = false;
  let ignored: ApiCall['ignored'] = [];
  const counted = !/^getupdates$/i.test(method);
  if (counted) log.inFlight++;
  let response: ApiResponse;
  try {
    if (match === null) throw notFound();
    if (decodeURIComponent(match[1] ?? '') !== state.token) throw unauthorized();
    const found = findMethod(method);
    const version = state.options.botApiVersion;
    const since = found === undefined ? undefined : METHODS_SINCE[found.name];
    // An older server does not have the method at all: the same answer as for a name it never had.
    if (found === undefined || (since !== undefined && !atLeast(version, since))) throw notFound();
    method = found.name;
    await front.pass(method, abort.signal);
    params = await readParams(req, url);
    // What the method reads: without the fields an older server does not know (the call keeps them as sent).
    let handed = params;
    if (!atLeast(version, CURRENT_BOT_API_VERSION)) {
      handed = keepSent(params);
      ignored = dropUnknownFields(method, handed, version);
    }
    const failure = log.takeFailure(method, params.chat_id);
    if (failure !== undefined) {
      injected = true;
      chatId = /^-?\d+$/.test(String(params.chat_id)) ? Number(params.chat_id) : undefined;
      throw failure;
    }
    const result: unknown = await found.handler({
      params: new Params(handed),
      state,
      signal: abort.signal,
      noteChat: (id) => {
        chatId = id;
      },
    });
    response = { ok: true, result };
  } catch (error) {
    response = toErrorResponse(error, abort.signal.aborted);
  } finally {
    if (counted) log.inFlight--;
  }
  if (!abort.signal.aborted) {
    const body = JSON.stringify(response);
    res.writeHead(response.ok ? 200 : response.error_code, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  }
  log.record({
    seq,
    method,
    params,
    response: abort.signal.aborted ? CLIENT_CLOSED : response,
    chatId,
    at_ms: atMs,
    done_ms: state.clock.nowMs(),
    injected,
    aborted: abort.signal.aborted,
    ignored,
  });
  state.feed.emit();
}

/** A copy of the parameters to drop ignored fields from; uploaded files are shared, not copied. */
const keepSent = (params: RawParams): RawParams =>
  Object.fromEntries(Object.entries(params).map(([key, value]) => [key, typeof value === 'object' && value !== null && !(value instanceof UploadedFile) ? structuredClone(value) : value]));

function toErrorResponse(error: unknown, aborted: boolean): ApiResponse {
  if (error instanceof BotApiError) {
    return {
      ok: false,
      error_code: error.errorCode,
      description: error.description,
      ...(error.parameters === undefined ? {} : { parameters: error.parameters }),
    };
  }
  if (aborted) return CLIENT_CLOSED;
  // a bug in the emulator itself: loud in the test output, a 500 to the bot
  console.error('bot API emulator failed on a request:', error);
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, error_code: 500, description: `Internal Server Error: emulator bug: ${message}` };
}
