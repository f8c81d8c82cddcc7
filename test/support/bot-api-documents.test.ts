import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, User } from 'telegraf/types';
import { startBotApi } from './bot-api/index.ts';
import type { ApiResponse, BotApi } from './bot-api/index.ts';

// sendDocument as Telegram takes it: a multipart upload, checked like a message, bytes kept.

let api: BotApi;
let user: User;

beforeEach(async () => {
  api = await startBotApi();
  user = api.createUser({ first_name: 'Ann' });
  api.sendText({ from: user, text: 'hi' });
});

afterEach(async () => {
  await api.close();
});

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Posts sendDocument as multipart/form-data: `document` a file (bytes) or a plain string field. */
async function upload(fields: Record<string, unknown>, document: Uint8Array | string | undefined, fileName = 'orders.xlsx', type = '', signal?: AbortSignal) {
  const response = await post(fields, document, fileName, type, signal);
  return { status: response.status, body: (await response.json()) as ApiResponse };
}

/** The same upload's raw answer. A Blob without a type goes as application/octet-stream. */
async function post(fields: Record<string, unknown>, document: Uint8Array | string | undefined, fileName = 'orders.xlsx', type = '', signal?: AbortSignal) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  if (typeof document === 'string') form.append('document', document);
  else if (document !== undefined) form.append('document', new Blob([document], { type }), fileName);
  return fetch(`${api.apiRoot}/bot${api.token}/sendDocument`, { method: 'POST', body: form, ...(signal ? { signal } : {}) });
}

const bytes = (text: string) => new TextEncoder().encode(text);

async function expectError(request: Promise<{ status: number; body: ApiResponse }>, code: number, description: string) {
  const { status, body } = await request;
  expect(body).toEqual({ ok: false, error_code: code, description });
  expect(status).toBe(code);
}

describe('sendDocument', () => {
  it('takes a multipart upload, answers a document message and keeps the bytes', async () => {
    const { status, body } = await upload({ chat_id: String(user.id), caption: 'Orders: <b>37</b>', parse_mode: 'HTML' }, bytes('PK-sheet'));
    expect(status).toBe(200);
    if (!body.ok) throw new Error(body.description);
    const sent = body.result as Message.DocumentMessage;
    expect(sent).toMatchObject({
      chat: { id: user.id, type: 'private' },
      from: { id: api.botUser.id, is_bot: true },
      document: { file_name: 'orders.xlsx', mime_type: XLSX, file_size: 8 },
      caption: 'Orders: 37',
      caption_entities: [{ type: 'bold', offset: 8, length: 2 }],
    });
    expect(sent).not.toHaveProperty('text');
    expect(sent.document.file_id).not.toBe(sent.document.file_unique_id);
    const [document] = api.documentsIn(user.id);
    expect(document).toMatchObject({ message_id: sent.message_id, file_name: 'orders.xlsx', mime_type: XLSX, caption: 'Orders: 37' });
    expect(document?.bytes.toString()).toBe('PK-sheet');
    // a recorded call shows the file by name and size, never its bytes
    expect(JSON.stringify(api.callsTo('sendDocument')[0]?.params.document)).toBe('{"filename":"orders.xlsx","size":8}');
  });

  it('puts the document in the chat like any bot message: text is its caption', async () => {
    await upload({ chat_id: String(user.id) }, bytes('a,b\n1,2\n'), 'report.csv');
    const message = await api.nextBotMessage(user.id);
    expect(message).toMatchObject({ text: '', document: { file_name: 'report.csv', mime_type: 'text/csv', file_size: 8 } });
    expect(api.documentsIn(user.id)[0]?.caption).toBeUndefined();
  });

  it('refuses a document given as a string (no file is known by id or URL) and a request without one', async () => {
    await expectError(upload({ chat_id: String(user.id) }, 'BQACAgIAAxkBAAI'), 400, 'Bad Request: wrong file identifier/HTTP URL specified');
    await expectError(upload({ chat_id: String(user.id) }, undefined), 400, 'Bad Request: there is no document in the request');
    expect(api.documentsIn(user.id)).toEqual([]);
  });

  it('refuses an empty file', async () => {
    await expectError(upload({ chat_id: String(user.id) }, new Uint8Array(0)), 400, 'Bad Request: file must be non-empty');
  });

  it('refuses a file over 50 MB with 413, before looking at anything else', async () => {
    const big = new Uint8Array(50 * 1024 * 1024 + 1);
    await expectError(upload({ chat_id: '42' }, big), 413, 'Request Entity Too Large');
    const { status } = await upload({ chat_id: String(user.id) }, big.subarray(1));
    expect(status).toBe(200);
    expect(api.documentsIn(user.id)[0]?.bytes.length).toBe(50 * 1024 * 1024);
  });

  it('cleans the caption as TDLib does: \\r dropped, other control characters spaces, entities moved', async () => {
    // (a lone \r travels as \r\n in a multipart form)
    const caption = 'Orders:\r\n<b>3\u000b7</b>\tdone\u0007!\u2028end';
    const { body } = await upload({ chat_id: String(user.id), caption, parse_mode: 'HTML' }, bytes('PK'));
    if (!body.ok) throw new Error(body.description);
    expect(body.result).toMatchObject({ caption: 'Orders:\n3 7 done !end', caption_entities: [{ type: 'bold', offset: 8, length: 3 }] });
    expect(api.documentsIn(user.id)[0]?.caption).toBe('Orders:\n3 7 done !end');
  });

  it('counts at most 1024 caption characters after HTML parsing', async () => {
    const fits = `<b>${'я'.repeat(1000)}</b> <i>${'x'.repeat(23)}</i>`;
    expect((await upload({ chat_id: String(user.id), caption: fits, parse_mode: 'HTML' }, bytes('1'))).status).toBe(200);
    expect(api.documentsIn(user.id)[0]?.caption).toHaveLength(1024);
    const tooLong = `<b>${'я'.repeat(1000)}</b> <i>${'x'.repeat(24)}</i>`;
    await expectError(upload({ chat_id: String(user.id), caption: tooLong, parse_mode: 'HTML' }, bytes('1')), 400, 'Bad Request: message caption is too long');
  });

  it('parses the caption as it parses message text', async () => {
    await expectError(
      upload({ chat_id: String(user.id), caption: '<b>open', parse_mode: 'HTML' }, bytes('1')),
      400,
      "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
    );
    await expectError(upload({ chat_id: String(user.id), caption: 'x', parse_mode: 'Textile' }, bytes('1')), 400, 'Bad Request: unsupported parse_mode');
  });

  it('checks the chat as sendMessage does', async () => {
    await expectError(upload({}, bytes('1')), 400, 'Bad Request: chat_id is empty');
    await expectError(upload({ chat_id: '42' }, bytes('1')), 400, 'Bad Request: chat not found');
    api.blockBot(user.id);
    await expectError(upload({ chat_id: String(user.id) }, bytes('1')), 403, 'Forbidden: bot was blocked by the user');
  });

  it('replies in a forum topic: given, or taken from the replied message; unknown topics and replies are refused', async () => {
    const forum = api.createGroup({ forum: true });
    const asked = api.sendText({ from: user, chat: forum, text: '/export order', threadId: 12 });
    const { body } = await upload({ chat_id: String(forum.id), reply_parameters: { message_id: asked.message_id } }, bytes('1'));
    expect(body).toMatchObject({ ok: true, result: { message_thread_id: 12, is_topic_message: true, reply_to_message: { message_id: asked.message_id } } });
    expect(api.documentsIn(forum.id)[0]).toMatchObject({ message_thread_id: 12, reply_to_message_id: asked.message_id });
    await expectError(upload({ chat_id: String(forum.id), message_thread_id: '99' }, bytes('1')), 400, 'Bad Request: message thread not found');
    await expectError(upload({ chat_id: String(forum.id), reply_parameters: { message_id: 500 } }, bytes('1')), 400, 'Bad Request: message to be replied not found');
  });

  it("keeps the upload's declared type; without one (or bytes only) names the type from the extension", async () => {
    await upload({ chat_id: String(user.id) }, bytes('PK'), 'orders.xlsx', XLSX);
    await upload({ chat_id: String(user.id) }, bytes('PK'), 'orders.xlsx');
    await upload({ chat_id: String(user.id) }, bytes('PK'), 'notes.bin', 'text/plain');
    expect(api.documentsIn(user.id).map((document) => [document.upload_type, document.mime_type])).toEqual([
      [XLSX, XLSX],
      ['application/octet-stream', XLSX],
      ['text/plain', 'text/plain'],
    ]);
    // The part's type is the emulator's record, not a field of the Bot API's document.
    const answered = api.callsTo('sendDocument')[0]?.response;
    expect(answered?.ok && (answered.result as Message.DocumentMessage).document).not.toHaveProperty('upload_type');
  });

  it('holds the next calls unanswered until released; a call the client gives up on is recorded as aborted', async () => {
    const held = api.holdNext('sendDocument', { times: 2 });
    const first = upload({ chat_id: String(user.id) }, bytes('1'));
    const stopping = new AbortController();
    const second = upload({ chat_id: String(user.id) }, bytes('2'), 'b.xlsx', '', stopping.signal);
    await api.waitFor(() => held.count() === 2);
    expect(api.documentsIn(user.id)).toEqual([]);
    stopping.abort();
    await expect(second).rejects.toThrow();
    await api.waitFor(() => api.callsTo('sendDocument').length === 1);
    expect(api.callsTo('sendDocument')[0]).toMatchObject({ aborted: true, response: { ok: false, error_code: 499 } });
    // The third is not held.
    expect((await upload({ chat_id: String(user.id) }, bytes('3'))).status).toBe(200);
    held.release();
    expect((await first).status).toBe(200);
    expect(api.documentsIn(user.id).map((document) => document.bytes.toString())).toEqual(['3', '1']);
    expect(api.failedCalls()).toEqual([]);
  });

  it('behind a proxy with a body limit, a larger upload gets 413 and an HTML page; the limit lifted, it goes', async () => {
    api.limitBodies(1024);
    const refused = await post({ chat_id: String(user.id) }, new Uint8Array(4096));
    expect(refused.status).toBe(413);
    expect(refused.headers.get('content-type')).toBe('text/html');
    expect(await refused.text()).toContain('<title>413 Request Entity Too Large</title>');
    expect((await upload({ chat_id: String(user.id) }, bytes('small'))).status).toBe(200);
    expect(api.callsTo('sendDocument').map((call) => [call.injected, call.response.ok])).toEqual([
      [true, false],
      [false, true],
    ]);
    api.limitBodies(undefined);
    expect((await upload({ chat_id: String(user.id) }, new Uint8Array(4096))).status).toBe(200);
    expect(api.documentsIn(user.id)).toHaveLength(2);
  });

  it('has no text to edit', async () => {
    const { body } = await upload({ chat_id: String(user.id), caption: 'v1' }, bytes('1'));
    if (!body.ok) throw new Error(body.description);
    const { message_id } = body.result as Message.DocumentMessage;
    const response = await fetch(`${api.apiRoot}/bot${api.token}/editMessageText`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: user.id, message_id, text: 'v2' }),
    });
    expect(await response.json()).toEqual({ ok: false, error_code: 400, description: 'Bad Request: there is no text in the message to edit' });
  });
});
