// Run by bench/checks.ts in a process of its own, so that its memory is this upload's alone:
// sends a sparse 48 MB file to a loopback server that discards it, and prints by how much the
// memory held (JS heap and Buffers, after a collection) grew at most while it went, in MB. Run
// with --expose-gc --no-concurrent-array-buffer-sweeping: without collections the figure is V8's
// allowance for garbage Buffers (~64 MB), and with Buffers swept concurrently it is noise.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Telegram } from '../../src/telegram/telegraf/core.ts';
import { createBotApiClient } from '../../src/telegram/bot-api-client.ts';
import { sendDocument } from '../../src/telegram/send-document.ts';

const SIZE = 48 * 1024 * 1024;
const result = { message_id: 1, chat: { id: 1, type: 'private' }, document: { file_id: 'f', file_unique_id: 'u' } };
let received = 0;
const server = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => (received += chunk.length));
  req.on('end', () => res.end(JSON.stringify({ ok: true, result })));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const dir = mkdtempSync(join(tmpdir(), 'upload-memory-'));
const path = join(dir, 'big.xlsx');
writeFileSync(path, '');
truncateSync(path, SIZE);
const client = createBotApiClient({ apiRoot, token: '1:memory' });
const telegram = new Telegram('1:memory', { apiRoot });
telegram.callApi = client.callApi;
const collect = globalThis.gc ?? (() => {
  throw new Error('run with --expose-gc --no-concurrent-array-buffer-sweeping');
});
const used = () => {
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};
const before = used();
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, used())), 100);
await sendDocument(telegram, { chat_id: 1, document: { filename: 'big.xlsx', path } });
clearInterval(sampler);
await client.close();
server.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ received, growthMb: (peak - before) / 1024 / 1024 }));
