import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';

// node:http taken with require, not import: imported as an ES module, its lazy WebSocket getters
// load Node's own bundled undici, which nothing here uses (docs/performance.md). Every module takes
// node:http's values from here (eslint.config.js; test/http/node-http.test.ts checks the built bot).
const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;

export const { createServer, STATUS_CODES } = http;
