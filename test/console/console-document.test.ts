import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotContext } from '../../src/bot/context.ts';
import { runConsoleChat } from '../../src/console/console-chat.ts';
import { saveDocument } from '../../src/console/save-document.ts';
import { createTelegraf } from '../../src/telegram/telegraf/bot.ts';
import { sendDocument } from '../../src/telegram/send-document.ts';

// The console chat's side of sendDocument: the loopback Bot API takes the multipart upload and
// the chat saves the file in its directory (the current one in use) and prints where.

let saveDir: string;
let sourceDir: string;
beforeEach(() => {
  saveDir = mkdtempSync(join(tmpdir(), 'console-save-'));
  sourceDir = mkdtempSync(join(tmpdir(), 'console-source-'));
});
afterEach(() => {
  rmSync(saveDir, { recursive: true, force: true });
  rmSync(sourceDir, { recursive: true, force: true });
});

const SHEET = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x10]);

/** A bot that answers "/file <name>" with a document of that name, through the bot's own client. */
const documentBot = (apiRoot: string, token: string) => {
  const bot = createTelegraf<BotContext>(token, { apiRoot });
  bot.use(async (ctx, next) => {
    if (ctx.chat === undefined || ctx.message === undefined || !('text' in ctx.message)) return next();
    const name = ctx.message.text.replace(/^\/file\s*/, '');
    const path = join(sourceDir, 'upload.bin');
    writeFileSync(path, SHEET);
    await sendDocument(ctx.telegram, {
      chat_id: ctx.chat.id,
      caption: 'Orders: <b>status production</b> — 37 &amp; more',
      parse_mode: 'HTML',
      document: { filename: name, path },
    });
  });
  return bot;
};

const chat = async (lines: string[]) => {
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  await runConsoleChat({
    input: Readable.from(lines.map((line) => `${line}\n`)),
    output,
    languageCode: 'en',
    intro: 'hello',
    logger: pino({ level: 'silent' }),
    saveDir,
    createBot: documentBot,
  });
  return printed;
};

describe('documents in the console chat', () => {
  it('saves the document in its directory and prints the path and the caption', async () => {
    const printed = await chat(['/file orders-status-production-2026-11-23.xlsx']);
    const path = join(saveDir, 'orders-status-production-2026-11-23.xlsx');
    expect(readFileSync(path)).toEqual(SHEET);
    expect(printed).toContain(`🤖 📎 ${path}\nOrders: status production — 37 & more\n`);
  });

  it('never overwrites a file: the next ones get " (2)", " (3)"', async () => {
    writeFileSync(join(saveDir, 'orders.xlsx'), 'mine');
    const printed = await chat(['/file orders.xlsx', '/file orders.xlsx']);
    expect(readFileSync(join(saveDir, 'orders.xlsx'), 'utf8')).toBe('mine');
    expect(readFileSync(join(saveDir, 'orders (2).xlsx'))).toEqual(SHEET);
    expect(readFileSync(join(saveDir, 'orders (3).xlsx'))).toEqual(SHEET);
    expect(printed).toContain(`📎 ${join(saveDir, 'orders (3).xlsx')}`);
  });
});

describe('saveDocument', () => {
  it('keeps a name with slashes inside the directory', () => {
    expect(saveDocument(saveDir, '../../etc/passwd.xlsx', SHEET)).toBe(join(saveDir, 'passwd.xlsx'));
    expect(saveDocument(saveDir, '..\\evil.csv', SHEET)).toBe(join(saveDir, 'evil.csv'));
    expect(saveDocument(saveDir, '..', SHEET)).toBe(join(saveDir, 'document'));
    expect(saveDocument(saveDir, 'README', SHEET)).toBe(join(saveDir, 'README'));
    expect(saveDocument(saveDir, 'README', SHEET)).toBe(join(saveDir, 'README (2)'));
    expect(readdirSync(saveDir).sort()).toEqual(['README', 'README (2)', 'document', 'evil.csv', 'passwd.xlsx']);
  });
});
