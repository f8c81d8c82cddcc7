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
  import type { Dispatcher } from 'undici';
  type Callback = (error: Error | null, data: Dispatcher.ResponseData) => void;
  /** The handler behind `request`: it calls back once with the answer (its body a stream) or an error. */
  export class RequestHandler implements Dispatcher.DispatchHandler {
    constructor(options: Dispatcher.RequestOptions, callback: Callback);
    /** Why the request was aborted before it started (its signal), if it was. */
    reason: Error | null;
    controller: Dispatcher.DispatchController | null;
    /** Aborts the request; called by the signal's listener, as a method. */
    abort: ((reason: Error) => void) | null;
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
