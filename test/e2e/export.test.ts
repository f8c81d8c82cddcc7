import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { User } from '../../src/telegram/telegraf/core.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTranslator } from '../../src/i18n.ts';
import type { Order, Specification } from '../../src/portal/schemas.ts';
import type { SentDocument } from '../support/bot-api/views.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Excel export end to end: the real bot, the strict Bot API emulator keeping the uploaded bytes,
// the test portal. Each file is read back with ExcelJS and compared with the portal's own data.

const EXCEL = '📊 Excel';
const en = createTranslator('en');
const ru = createTranslator('ru');

/** Every record the portal has for a query, read straight from it (20 a page). */
const portalRecords = async <R>(h: Harness, path: string, filter: string, value: string): Promise<R[]> => {
  const records: R[] = [];
  for (let offset = 0; ; offset += 20) {
    const url = `${h.portal.url}${path}?${new URLSearchParams({ [filter]: value, limit: '20', offset: String(offset) })}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${h.portal.token}` } });
    const body = (await response.json()) as { data: { result: R[]; total: number } };
    records.push(...body.data.result);
    if (records.length >= body.data.total || body.data.result.length === 0) return records;
  }
};

/** The chat's documents once `count` have come and no progress message is left. */
const documentsWhenDone = async (h: Harness, chatId: number, count = 1): Promise<SentDocument[]> => {
  const documents = await h.api.waitFor(() => {
    const sent = h.api.documentsIn(chatId);
    const progress = h.api.messagesIn(chatId).filter((message) => /^(Exporting|Выгружаю|Writing|Собираю|Waiting|Жду)/.test(message.text));
    return sent.length >= count && progress.length === 0 && sent;
  });
  await h.settle();
  return documents;
};

const workbookOf = async (document: SentDocument): Promise<ExcelJS.Workbook> => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.read(Readable.from([document.bytes]));
  return workbook;
};

/** A sheet's rows as values, the header first; ExcelJS counts cells from 1. */
const rowsOf = (workbook: ExcelJS.Workbook, name: string): unknown[][] => {
  const sheet = workbook.getWorksheet(name);
  if (!sheet) throw new Error(`no sheet ${name} in ${workbook.worksheets.map((candidate) => candidate.name).join(', ')}`);
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
};

const exportDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith('bot-export-'));

describe('Excel export', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.portal.fail(undefined));
  afterAll(() => h.close());

  it('📊 under results sends every order of the query as a workbook that matches the portal', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const results = await h.ask(user, '/order status production');
    expect(results.buttons.map((button) => button.text)).toEqual(['1', '2', '3', '4', '5', '◀', '1/5', '▶', EXCEL, '🔄 Refresh', '🔔 Watch']);
    const before = h.portal.requests.length;
    const { answer } = await h.press(user, results, h.button(results, EXCEL));
    expect(answer).toMatchObject({ text: 'Preparing the file…', show_alert: false });
    const [document] = await documentsWhenDone(h, user.id);
    const portalCalls = h.portal.requests.slice(before);
    // Page by page, 20 at a time, one after another.
    expect(portalCalls.map((url) => new URL(url, 'http://portal').searchParams.get('offset'))).toEqual(['0', '20']);
    expect(portalCalls.every((url) => url.includes('limit=20'))).toBe(true);

    const orders = await portalRecords<Order>(h, '/api/lk/order', 'STATUS', 'production');
    expect(orders).toHaveLength(21);
    expect(document!.file_name).toBe('orders-status-production-2026-11-23.xlsx');
    expect(document?.caption).toBe('📊 Orders: status “production”\n21 records\ndata as of 23 Nov 2026, 14:05');
    expect(document!.reply_to_message_id).toBeUndefined();

    const workbook = await workbookOf(document!);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Orders', 'Positions']);
    const [header, ...rows] = rowsOf(workbook, 'Orders');
    expect(header?.slice(0, 5)).toEqual(['SAP no.', 'CRM no.', 'Order date', 'Status code', 'Status'].map((text) => text));
    expect(header?.[0]).toBe(en('sheet.column.sapId'));
    expect(rows).toHaveLength(orders.length);
    // Codes are text with their leading zeros, amounts numbers, dates dates.
    expect(rows.map((row) => row[0])).toEqual(orders.map((order) => order.SAP_ID));
    expect(rows.every((row) => typeof row[0] === 'string' && (row[0] as string).startsWith('000'))).toBe(true);
    const sumColumn = header!.indexOf(en('sheet.column.total'));
    for (const [index, row] of rows.entries()) {
      const expected = orders[index]!.POSITION_SUM;
      if (expected === null) expect(row[sumColumn]).toBeUndefined();
      else {
        expect(typeof row[sumColumn]).toBe('number');
        expect(row[sumColumn]).toBeCloseTo(expected, 2);
      }
    }
    expect(rows.filter((row) => row[2] instanceof Date)).toHaveLength(orders.filter((order) => order.DATE_ORDER).length);
    const positions = rowsOf(workbook, 'Positions').slice(1);
    expect(positions).toHaveLength(orders.reduce((sum, order) => sum + order.POSITION.length, 0));
    const codes = orders.flatMap((order) => order.POSITION.map((position) => position.MATERIAL_SAP_ID));
    expect(positions.map((row) => row[2])).toEqual(codes);
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
    const quantities = orders.flatMap((order) => order.POSITION.map((position) => position.QUANTITY));
    expect(positions.map((row) => (typeof row[4] === 'number' ? Math.round(row[4] * 1000) : row[4]))).toEqual(
      quantities.map((quantity) => (quantity === null ? undefined : Math.round(quantity * 1000))),
    );

    // The progress message is gone once the file is there; the results stay.
    expect(h.api.messagesIn(user.id).map((message) => message.message_id)).toEqual([results.message_id, document!.message_id]);
  });

  it('/export spec … in Russian: five sheets with Russian headers, no results message first', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    h.api.sendText({ from: user, text: '/export spec ДП-77/2026' });
    const [document] = await documentsWhenDone(h, user.id);
    expect(h.api.messagesIn(user.id)).toHaveLength(1);
    expect(document!.file_name).toBe('specifications-contract-DP-77-2026-2026-11-23.xlsx');
    expect(document?.caption).toBe('📊 Спецификации: номер договора «ДП-77/2026»\n8 записей\nданные на 23.11.2026 14:05');
    const specs = await portalRecords<Specification>(h, '/api/lk/specification', 'CONTRACT_NUMBER', 'ДП-77/2026');
    const workbook = await workbookOf(document!);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      ru('sheet.specifications'),
      ru('sheet.specPositions'),
      ru('sheet.documents'),
      ru('sheet.deliveries'),
      ru('sheet.requests'),
    ]);
    const [header, ...rows] = rowsOf(workbook, ru('sheet.specifications'));
    expect(header?.[0]).toBe(ru('sheet.column.sapId'));
    expect(rows).toHaveLength(specs.length);
    expect(rows.map((row) => row[0])).toEqual(specs.map((spec) => spec.SAP_ID));
    expect(rowsOf(workbook, ru('sheet.specPositions')).slice(1)).toHaveLength(specs.reduce((sum, spec) => sum + spec.POSITION.length, 0));
  });

  it.each([
    ['/export', 'Tell me what to export to Excel'],
    ['/export order', 'Tell me what to export to Excel'],
    ['/export spec', 'Tell me what to export to Excel'],
    ['/export order date 32.13.2026', '“32.13.2026” is not a date I can read'],
  ])('%s gets the usage and asks the portal nothing', async (command, expected) => {
    const user = h.api.createUser({ language_code: 'en' });
    const before = h.portal.requests.length;
    const reply = await h.ask(user, command);
    expect(reply.text).toContain(expected);
    await h.settle();
    expect(h.portal.requests.length).toBe(before);
    expect(h.api.documentsIn(user.id)).toEqual([]);
  });

  it('tells "nothing found" in the progress message and sends no file', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    h.api.sendText({ from: user, text: '/export order crm NO-SUCH-ORDER' });
    const message = await h.api.waitFor(() => h.api.messagesIn(user.id).find((candidate) => candidate.text.startsWith('No orders found')));
    expect(message.text).toContain('CRM no. “NO-SUCH-ORDER”');
    await h.settle();
    expect(h.api.documentsIn(user.id)).toEqual([]);
  });

  it('a portal failure midway sends no file, says why with "Try again", leaves no file behind; Try again exports', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const dirs = exportDirs();
    const broken = h.portal.answerWhere((url) => url.includes('offset=20'), { status: 500, body: 'down' });
    h.api.sendText({ from: user, text: '/export order status production' });
    const failed = await h.api.waitFor(() => h.api.messagesIn(user.id).find((message) => message.text.includes('no file was sent')));
    expect(failed.text).toBe('The portal answered with an error. Please try again later.\n\nThe export stopped; no file was sent.');
    expect(failed.buttons.map((button) => button.text)).toEqual(['🔁 Try again']);
    await h.settle();
    expect(h.api.documentsIn(user.id)).toEqual([]);
    expect(exportDirs()).toEqual(dirs);
    expect(broken.count()).toBeGreaterThan(0);

    broken.stop();
    const { answer } = await h.press(user, failed, h.button(failed, '🔁 Try again'));
    expect(answer.text).toBe('Preparing the file…');
    const [document] = await documentsWhenDone(h, user.id);
    expect(rowsOf(await workbookOf(document!), 'Orders')).toHaveLength(22);
    expect(exportDirs()).toEqual(dirs);
  });

  it('a forged or stale export button gets the usual answer and no export', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const results = await h.ask(user, '/order status production');
    const before = h.portal.requests.length;
    for (const data of ['e:o9=1', 'e:@NoSuchKey12345', 'e:o2=2026-02-30']) {
      const { answer } = await h.press(user, results, data, true);
      expect(answer).toMatchObject({ text: en('errors.staleButton'), show_alert: true });
    }
    expect(h.portal.requests.length).toBe(before);
    expect(h.api.messagesIn(user.id)).toHaveLength(1);
  });

  it('one export at a time per user: a second press or /export meanwhile is told one is running', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const results = await h.ask(user, '/order status production');
    const held = h.portal.hangWhere((url) => url.includes('STATUS=production') && url.includes('offset=20'));
    await h.press(user, results, h.button(results, EXCEL));
    await h.api.waitFor(() => held.count() > 0);
    const progress = h.api.messagesIn(user.id).at(-1);
    expect(progress?.text).toBe('Exporting…');
    const { answer } = await h.press(user, results, h.button(results, EXCEL));
    expect(answer).toMatchObject({ text: 'An export is already running: wait for its file, then start the next one.', show_alert: true });
    h.api.sendText({ from: user, text: '/export order status production' });
    await h.api.waitFor(() => h.api.messagesIn(user.id).find((message) => message.text.startsWith('An export is already running')));
    held.release();
    expect(await documentsWhenDone(h, user.id)).toHaveLength(1);
    // Done: the next one may start.
    await h.press(user, results, h.button(results, EXCEL));
    expect(await documentsWhenDone(h, user.id, 2)).toHaveLength(2);
  });

  it('in a forum topic the progress and the file go to the topic, replying to the command', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const forum = h.api.createGroup({ type: 'supergroup', forum: true, title: 'Sales' });
    const command = h.api.sendText({ from: user, chat: forum, text: '/export@order_lookup_bot spec ДП-77/2026', threadId: 42 });
    const [document] = await documentsWhenDone(h, forum.id);
    expect(document).toMatchObject({ message_thread_id: 42, reply_to_message_id: command.message_id });
    const progress = h.api.callsTo('sendMessage', { chatId: forum.id });
    expect(progress.map((call) => call.params.message_thread_id)).toEqual([42]);
  });

  it('📊 pressed in a forum topic exports there, replying to the results', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const forum = h.api.createGroup({ type: 'supergroup', forum: true, title: 'Sales' });
    h.api.sendText({ from: user, chat: forum, text: '/order@order_lookup_bot status production', threadId: 7 });
    const results = await h.api.nextBotMessage(forum.id);
    await h.press(user, results, h.button(results, EXCEL));
    const [document] = await documentsWhenDone(h, forum.id);
    expect(document).toMatchObject({ message_thread_id: 7, reply_to_message_id: results.message_id });
  });
});

describe('Excel export limits', () => {
  let h: Harness;
  const allowed = (id: number): User => h.api.createUser({ id, language_code: 'en' });
  beforeAll(async () => {
    h = await startHarness({
      env: { EXPORT_MAX_RECORDS: '7', EXPORT_CONCURRENCY: '1', ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: '5001,5002,5003,5004', FLOOD_LIMIT_PER_MINUTE: '4' },
    });
  });
  afterAll(() => h.close());

  it('past EXPORT_MAX_RECORDS the file holds the first ones, and its note row and caption say so', async () => {
    const user = allowed(5001);
    const before = h.portal.requests.length;
    h.api.sendText({ from: user, text: '/export order status production' });
    const [document] = await documentsWhenDone(h, user.id);
    expect(h.portal.requests.length - before).toBe(1);
    expect(document?.caption).toBe(
      '📊 Orders: status “production”\nThe file holds the first 7 of 21: no more fit in one export. Narrow the search to export them all.\ndata as of 23 Nov 2026, 14:05',
    );
    const rows = rowsOf(await workbookOf(document!), 'Orders');
    const data = rows.filter((row) => typeof row[0] === 'string' && /^\d+$/.test(row[0]));
    expect(data).toHaveLength(7);
    expect(rows.at(-1)?.[0]).toBe('The file holds the first 7 of 21: no more fit in one export. Narrow the search to export them all.');
  });

  it('past EXPORT_CONCURRENCY an export waits in line, saying so, and runs when a slot frees', async () => {
    const [first, second] = [allowed(5002), allowed(5003)];
    const held = h.portal.hangWhere((url) => url.includes('SPECIFICATION_NUMBER'));
    h.api.sendText({ from: first, text: '/export spec number 1' });
    await h.api.waitFor(() => held.count() > 0);
    h.api.sendText({ from: second, text: '/export order status production' });
    const waiting = await h.api.nextBotMessage(second.id);
    expect(waiting.text).toBe('Waiting in line: other exports are running, this one is number 1 in line.');
    await h.settle();
    expect(h.api.documentsIn(second.id)).toEqual([]);
    held.release();
    expect(await documentsWhenDone(h, first.id)).toHaveLength(1);
    expect(await documentsWhenDone(h, second.id)).toHaveLength(1);
    expect(h.api.message(second.id, waiting.message_id)?.deleted).toBe(true);
  });

  it('refuses a user who is not allowed, and counts exports against the flood limit', async () => {
    const stranger = h.api.createUser({ id: 6001, language_code: 'en' });
    expect((await h.ask(stranger, '/export order status production')).text).toContain('You have no access to this bot');
    await h.settle();
    expect(h.api.documentsIn(stranger.id)).toEqual([]);

    const user = allowed(5004);
    for (let i = 0; i < 4; i += 1) await h.ask(user, '/export');
    expect((await h.ask(user, '/export order status production')).text).toBe(en('errors.slowDown'));
    await h.settle();
    expect(h.api.documentsIn(user.id)).toEqual([]);
  });
});

describe('Excel export from a slow portal', () => {
  let h: Harness;
  beforeAll(async () => {
    // A page may take seconds; an update's handling is cut after one.
    h = await startHarness({ env: { HANDLER_DEADLINE_SECONDS: '1', PORTAL_TIMEOUT_MS: '5000' } });
  });
  afterAll(() => h.close());

  it('shows "Exporting: N of M" while slow pages come, at most every two seconds', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const second = h.portal.hangWhere((url) => url.includes('STATUS=production') && url.includes('limit=20') && url.includes('offset=20'));
    h.api.sendText({ from: user, text: '/export order status production' });
    await h.api.waitFor(() => second.count() > 0);
    // The first page came at once: too soon for a count.
    expect(h.api.messagesIn(user.id).at(-1)?.text).toBe('Exporting…');
    // The second page takes a little over two seconds of the harness's clock.
    h.advance(2_100);
    second.release();
    const [document] = await documentsWhenDone(h, user.id);
    expect(document?.file_name).toBe('orders-status-production-2026-11-23.xlsx');
    const edits = h.api.callsTo('editMessageText', { chatId: user.id }).map((call) => call.params.text);
    expect(edits).toEqual(['Exporting: 21 of 21', 'Writing the Excel file…']);
  });

  it('an export outlives its update\'s deadline: the file still comes', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const second = h.portal.hangWhere((url) => url.includes('STATUS=production') && url.includes('limit=20') && url.includes('offset=20'));
    h.api.sendText({ from: user, text: '/export order status production' });
    await h.api.waitFor(() => second.count() > 0);
    // Real time: the update's deadline is a timer (HANDLER_DEADLINE_SECONDS, one second at least).
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    second.release();
    expect(await documentsWhenDone(h, user.id)).toHaveLength(1);
  });
});
