import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Telegram } from '../../src/telegram/telegraf/core.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExportSlots } from '../../src/export/slots.ts';
import { runExport, type ExportDeps } from '../../src/export/run-export.ts';
import { exportViews } from '../../src/bot/views/export.ts';
import { createFormatter } from '../../src/format.ts';
import { createTranslator } from '../../src/i18n.ts';
import { createPortalClient } from '../../src/portal/client.ts';
import { createBotApiClient } from '../../src/telegram/bot-api-client.ts';
import { startBotApi, type BotApi } from '../support/bot-api/index.ts';
import { startTestPortal, type TestPortal } from '../support/test-portal.ts';

// One export run on its own, with the strict emulator and the test portal, for what the bot's
// configuration cannot reach: the size check before sending, and the temporary directory.

let api: BotApi;
let portal: TestPortal;
let telegram: Telegram;
let client: ReturnType<typeof createBotApiClient>;
let dir: string;
beforeAll(async () => {
  api = await startBotApi();
  portal = await startTestPortal();
  // Every call through the bot's own Bot API client, as installBotApiClient sets it up.
  telegram = new Telegram(api.token, { apiRoot: api.apiRoot });
  client = createBotApiClient({ apiRoot: api.apiRoot, token: api.token });
  telegram.callApi = client.callApi;
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'run-export-test-'));
  return () => rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await client.close();
  await api.close();
  await portal.close();
});

const deps = (overrides: Partial<ExportDeps> = {}): ExportDeps => ({
  portal: createPortalClient({ baseUrl: portal.url, token: portal.token, timeoutMs: 2_000 }),
  maxRecords: 1000,
  logger: pino({ level: 'silent' }),
  now: () => new Date('2026-11-23T11:05:00Z'),
  tmpDir: dir,
  ...overrides,
});

const job = (chatId: number, slots = createExportSlots(1)) => ({
  telegram,
  chatId,
  userId: chatId,
  query: { resource: 'order', filter: 'STATUS', value: 'production' } as const,
  fmt: createFormatter('en'),
  views: exportViews(createTranslator('en'), createFormatter('en'), { query: { resource: 'order', filter: 'STATUS', value: 'production' } }),
  turn: slots.take(chatId)!,
});

describe('runExport', () => {
  it('sends the file, deletes the progress message and its temporary directory, and frees the turn', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: '/export order status production' });
    const slots = createExportSlots(1);
    await runExport(job(user.id, slots), deps());
    expect(api.documentsIn(user.id).map((document) => document.file_name)).toEqual(['orders-status-production-2026-11-23.xlsx']);
    // Sent as what it is, not as application/octet-stream.
    expect(api.documentsIn(user.id)[0]?.upload_type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(api.messagesIn(user.id).filter((message) => message.document === undefined)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    expect(slots.running()).toBe(0);
    expect(api.failedCalls()).toEqual([]);
  });

  it('checks the size before sending: a file over the limit is not sent, the user is told, nothing is left behind', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: '/export order status production' });
    await runExport(job(user.id), deps({ maxDocumentBytes: 1024 * 1024 * 0.001 }));
    expect(api.documentsIn(user.id)).toEqual([]);
    expect(api.callsTo('sendDocument', { chatId: user.id })).toEqual([]);
    expect(api.messagesIn(user.id).map((message) => message.text)).toEqual([
      expect.stringMatching(/^The file came out at \d+(\.\d)? MB, over the 0.001 MB Telegram accepts\. Narrow the search\.$/),
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('once the file is sent, a failure after it is only logged: no message says the export failed', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: '/export order status production' });
    const logged: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(String(JSON.parse(line).msg)) });
    let ends = 0;
    // Freeing the turn right after sending fails once, as any cleanup step may.
    const end = () => {
      ends += 1;
      if (ends === 1) throw new Error('cleanup failed');
    };
    const turn = { place: () => 0, started: async () => undefined, end };
    await runExport({ ...job(user.id), turn }, deps({ logger }));
    expect(api.documentsIn(user.id)).toHaveLength(1);
    expect(api.messagesIn(user.id).filter((message) => message.document === undefined)).toEqual([]);
    expect(logged).toContain('an export was sent, but cleaning up after it failed');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('when the bot stops mid-export, the progress message says so with Try again, and the directory goes', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: '/export order status production' });
    const held = portal.hangWhere((url) => url.includes('offset=20'));
    const stopping = new AbortController();
    const running = runExport(job(user.id), deps({ signal: stopping.signal }));
    await api.waitFor(() => held.count() > 0);
    stopping.abort();
    held.release();
    await running;
    expect(api.documentsIn(user.id)).toEqual([]);
    const [told] = api.messagesIn(user.id);
    expect(told?.text).toBe('The bot is restarting.\n\nThe export stopped; no file was sent.');
    expect(told?.buttons).toEqual([{ text: '🔁 Try again', callback_data: 'e:o3=production' }]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an upload Telegram never answers is given up at its deadline: told so with Try again, the directory gone, the turn free', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: '/export order status production' });
    const held = api.holdNext('sendDocument');
    const slots = createExportSlots(1);
    const sizes: number[] = [];
    await runExport(job(user.id, slots), deps({ uploadDeadlineMs: (bytes) => (sizes.push(bytes), 300) }));
    held.release();
    expect(held.count()).toBe(1);
    expect(sizes).toEqual([expect.any(Number)]);
    expect(sizes[0]).toBeGreaterThan(1000);
    expect(api.documentsIn(user.id)).toEqual([]);
    const [told] = api.messagesIn(user.id);
    expect(told?.text).toBe('Telegram did not take the file in time.\n\nThe export stopped; no file was sent.');
    expect(told?.buttons).toEqual([{ text: '🔁 Try again', callback_data: 'e:o3=production' }]);
    expect(readdirSync(dir)).toEqual([]);
    expect(slots.running()).toBe(0);
  });

  it('a file the Bot API server refuses as too large (413 from a proxy) is told so, without a Try again that cannot succeed', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: '/export order status production' });
    api.limitBodies(1024);
    try {
      await runExport(job(user.id), deps());
    } finally {
      api.limitBodies(undefined);
    }
    expect(api.documentsIn(user.id)).toEqual([]);
    const [told] = api.messagesIn(user.id);
    expect(told?.text).toMatch(
      /^The file \(\d+(\.\d)? MB\) is too large for the Bot API server this bot sends through: it refused it\. Trying again will not help: tell the administrator, or narrow the search\.\n\nThe export stopped; no file was sent\.$/,
    );
    expect(told?.buttons).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the bot stopping during the upload gives it up: the message says the bot is restarting, the directory goes', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: '/export order status production' });
    const held = api.holdNext('sendDocument');
    const stopping = new AbortController();
    const running = runExport(job(user.id), deps({ signal: stopping.signal }));
    await api.waitFor(() => held.count() > 0);
    expect(api.messagesIn(user.id)[0]?.text).toBe('Writing the Excel file…');
    stopping.abort();
    await running;
    held.release();
    expect(api.documentsIn(user.id)).toEqual([]);
    const [told] = api.messagesIn(user.id);
    expect(told?.text).toBe('The bot is restarting.\n\nThe export stopped; no file was sent.');
    expect(told?.buttons).toEqual([{ text: '🔁 Try again', callback_data: 'e:o3=production' }]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('tells a failure in a new message when the user deleted the progress message', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: '/export order status production' });
    const held = portal.hangWhere((url) => url.includes('offset=20'));
    const running = runExport(job(user.id), deps());
    await api.waitFor(() => held.count() > 0);
    const progress = api.messagesIn(user.id)[0]!;
    api.deleteMessage({ from: user, message: progress });
    portal.failNext('http500', 2);
    held.release();
    await running;
    const [told] = api.messagesIn(user.id);
    expect(told?.text).toBe('The portal answered with an error. Please try again later.\n\nThe export stopped; no file was sent.');
    expect(told?.buttons).toEqual([{ text: '🔁 Try again', callback_data: 'e:o3=production' }]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
