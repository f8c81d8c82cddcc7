import type { Agent as UndiciAgent, Dispatcher, FormData as UndiciFormData, Pool as UndiciPool } from 'undici';
import UndiciAgentClass from 'undici/lib/dispatcher/agent.js';
import UndiciPoolClass from 'undici/lib/dispatcher/pool.js';
import dispatchRequest from 'undici/lib/api/api-request.js';

// undici's HTTP/1.1 client and its request API, without the rest of its index: the index loads
// fetch, WebSocket, EventSource, the mock agents, the cache stores, proxies and interceptors,
// three quarters of the bundle's code (970 of 1,270 KB), which V8 holds as source and compiles at
// start whether used or not. Loaded alone, the two cost 14 MB less resident memory (BENCHMARKS.md).
// These are undici's own files (its package has no export map to forbid them); the lock file pins
// the version, and test/http/undici.test.ts checks they are still the classes its index exports.

export const Agent = UndiciAgentClass;
export type Agent = UndiciAgent;
export const Pool = UndiciPoolClass;
export type Pool = UndiciPool;
export type { Dispatcher };

/** undici's `dispatcher.request(options)`: what its index adds to every dispatcher's prototype. */
export const request = (dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> =>
  dispatchRequest.call(dispatcher, options);

/** undici's FormData (its multipart encoder checks for its own class), loaded with the first upload. */
export const loadFormData = async (): Promise<typeof UndiciFormData> => (await import('undici/lib/web/fetch/formdata.js')).FormData;
