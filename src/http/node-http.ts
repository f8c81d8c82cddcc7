import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';

// node:http taken with require, not import: importing a built-in as an ES module reads every
// export, and node:http's WebSocket, CloseEvent and MessageEvent are lazy getters that load Node's
// own bundled undici (763 KB of source), which nothing here uses: +13 MB RSS for node:http imported
// alone, 4.3 MB off the bot idle (106.2 → 101.9 MB). Every module takes node:http's values from
// here (eslint.config.js holds src/ to it; test/http/node-http.test.ts checks the built bot);
// types may still be imported directly.
const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;

export const { createServer, STATUS_CODES } = http;
