import type * as Http2 from 'node:http2';

// What undici's HTTP/2 client (undici/lib/dispatcher/client-h2.js) takes from node:http2 as it
// loads: ten constants and `connect`. scripts/build.ts gives it this module instead, so that
// node:http2 is loaded by the first HTTP/2 session (an https origin that offers h2), not at every
// start for nothing (README, "Performance"). test/http/lazy-http2.test.ts holds the constants to
// node:http2's own.

export const constants = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_NO_ERROR: 0,
  NGHTTP2_REFUSED_STREAM: 7,
} as const;

export const connect = ((...args: Parameters<typeof Http2.connect>) => process.getBuiltinModule('node:http2').connect(...args)) as typeof Http2.connect;
