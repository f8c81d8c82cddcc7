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

/** undici's `dispatcher.request(options)`. */
export const request = (dispatcher: Dispatcher, options: RequestOptions): Promise<ResponseData> =>
  dispatchRequest.call(dispatcher as UndiciDispatcher, options);

/**
 * undici's FormData (its multipart encoder checks for its own class), loaded with the first
 * upload: it brings undici's fetch helpers and Node's web streams and worker_threads, which
 * nothing else needs. undici's request code loads it only for a FormData body.
 */
export const loadFormData = async (): Promise<typeof UndiciFormData> => (await import('undici/lib/web/fetch/formdata.js')).FormData;
export type FormData = UndiciFormData;
