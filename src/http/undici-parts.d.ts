// Types for the files of undici that src/http/undici.ts loads instead of its index: the classes and
// functions are those the index exports, typed by undici's own declarations.

declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { AsyncResource } from 'node:async_hooks';
  import type { Dispatcher } from 'undici';
  /** Called once: with the answer (its body a stream), or with an error and the request's `opaque`. */
  type Callback = (error: Error | null, data: Dispatcher.ResponseData | { opaque: unknown }) => void;
  /** The handler behind `request`. */
  export class RequestHandler extends AsyncResource implements Dispatcher.DispatchHandler {
    constructor(options: Dispatcher.RequestOptions, callback: Callback);
    /** Why the request was aborted before it started: its signal's reason, if it was. */
    reason: unknown;
    /** Set until the answer starts. */
    callback: Callback | null;
    controller: Dispatcher.DispatchController | null;
    /** Aborts the request; the signal's listener calls it with the reason. */
    abort: ((reason: unknown) => void) | null;
    context: unknown;
    onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void;
  }
  const request: {
    (this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
    RequestHandler: typeof RequestHandler;
  };
  export default request;
}

declare module 'undici/lib/web/fetch/formdata.js' {
  import type { FormData as UndiciFormData } from 'undici';
  export const FormData: typeof UndiciFormData;
}
