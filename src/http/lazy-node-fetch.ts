import type NodeFetch from 'node-fetch';

// What Telegraf's HTTP client (telegraf/lib/core/network/client.js) takes from node-fetch as it
// loads: its default export, called in Telegraf's own `callApi` and for an attachment given by URL.
// The bot replaces `callApi` with its undici client (src/telegram/bot-api-client.ts), so
// scripts/build.ts gives Telegraf this module instead: node-fetch, with whatwg-url and tr46's
// 260 KB mapping table (4 MB more resident memory at start, measured idle), is loaded by its first
// call, never at start (README, "Performance"). test/http/lazy-node-fetch.test.ts fetches through it.

type Fetch = typeof NodeFetch;

let loaded: Promise<Fetch> | undefined;

const fetch: Fetch = async (url, init) => {
  // A load that failed is tried again by the next call.
  loaded ??= import('node-fetch').then(
    (module) => module.default,
    (error: unknown) => {
      loaded = undefined;
      throw error;
    },
  );
  return (await loaded)(url, init);
};

export default fetch;
