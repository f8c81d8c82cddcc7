import assert from 'node:assert';
import type { Agent as UndiciAgent, Dispatcher as UndiciDispatcher, FormData as UndiciFormData, Pool as UndiciPool } from 'undici';
import UndiciAgentClass from 'undici/lib/dispatcher/agent.js';
import UndiciPoolClass from 'undici/lib/dispatcher/pool.js';
import dispatchRequest from 'undici/lib/api/api-request.js';

// undici's HTTP/1.1 client and its request API, without the rest of its index: the index loads
// fetch, WebSocket, EventSource, the mock agents, the cache stores, proxies and interceptors, which
// V8 holds and partly compiles at start whether used or not (README, "Performance").
// These are undici's own files (its package has no export map to forbid them); package.json pins
// the version, and test/http/undici.test.ts checks they are still the classes its index exports.
// The only module of src/ that imports undici's values (eslint.config.js).

/** What the index adds to every dispatcher's prototype, absent here: call `request` below. */
type IndexMethods = 'request' | 'stream' | 'pipeline' | 'connect' | 'upgrade';
export type Dispatcher = Omit<UndiciDispatcher, IndexMethods>;
export type Agent = Omit<UndiciAgent, IndexMethods>;
export type Pool = Omit<UndiciPool, IndexMethods>;
export type RequestOptions = UndiciDispatcher.RequestOptions;
export type ResponseData = UndiciDispatcher.ResponseData;

export const Agent: new (...options: ConstructorParameters<typeof UndiciAgent>) => Agent = UndiciAgentClass;
export const Pool: new (...options: ConstructorParameters<typeof UndiciPool>) => Pool = UndiciPoolClass;

/**
 * The abort function a request's handler keeps, made here rather than inside the handler's method:
 * see RequestHandler below.
 */
const abortWith =
  (controller: UndiciDispatcher.DispatchController) =>
  (reason: unknown): void =>
    controller.abort(reason as Error);

/**
 * undici's handler behind `request`, its `onRequestStart` the same but for the abort function,
 * made by `abortWith`. undici's own makes it as an arrow function in the method, and with that
 * much of each request's objects (handler, answer, body stream) survived the young generation's
 * collections: a client making 1,800 requests a second, 3 at a time, promoted 1.5–1.7 MB per
 * scavenge through undici's `request` and 35 KB through this one. Where inside V8 the arrow
 * function keeps them alive was not established (README, "Performance"; test/http/undici.test.ts
 * measures it with V8's GC trace, against undici's own and against this handler with the arrow).
 */
class RequestHandler extends dispatchRequest.RequestHandler {
  override onRequestStart(controller: UndiciDispatcher.DispatchController, context: unknown): void {
    if (this.reason) {
      controller.abort(this.reason as Error);
      return;
    }
    assert(this.callback);
    this.controller = controller;
    this.abort = abortWith(controller);
    this.context = context;
  }
}

/** undici's `dispatcher.request(options)`: options it refuses reject the promise, as there. */
export const request = (dispatcher: Dispatcher, options: RequestOptions): Promise<ResponseData> =>
  new Promise((resolve, reject) => {
    try {
      // Without an error, `data` is the answer.
      dispatcher.dispatch(options, new RequestHandler(options, (error, data) => (error ? reject(error) : resolve(data as ResponseData))));
    } catch (error) {
      reject(error);
    }
  });

/**
 * undici's FormData (its multipart encoder checks for its own class), loaded with the first
 * upload: it brings undici's fetch helpers and Node's web streams and worker_threads, which
 * nothing else needs. undici's request code loads it only for a FormData body.
 */
export const loadFormData = async (): Promise<typeof UndiciFormData> => (await import('undici/lib/web/fetch/formdata.js')).FormData;
export type FormData = UndiciFormData;
