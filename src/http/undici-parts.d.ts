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
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}

declare module 'undici/lib/web/fetch/formdata.js' {
  import type { FormData as UndiciFormData } from 'undici';
  export const FormData: typeof UndiciFormData;
}
