import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';

// node:http taken with require, not import: importing a built-in as an ES module reads every
// export, and node:http's WebSocket, CloseEvent and MessageEvent are lazy getters that load Node's
// own bundled undici (763 KB of source, +13 MB RSS measured), which nothing here uses. Every
// module takes node:http's values from here; types may still be imported directly.
const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;

export const { createServer, STATUS_CODES } = http;
