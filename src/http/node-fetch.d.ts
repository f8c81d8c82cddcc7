// node-fetch 2 ships no types; the one call src/http/lazy-node-fetch.ts passes on.
declare module 'node-fetch' {
  const fetch: (url: string | URL, init?: object) => Promise<unknown>;
  export default fetch;
}
