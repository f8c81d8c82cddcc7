import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPortal } from '../../src/app/portal.ts';
import { createBot } from '../../src/bot/create-bot.ts';
import { createExports } from '../../src/export/exports.ts';
import { parseConfig } from '../../src/config.ts';
import { runConsoleChat } from '../../src/console/console-chat.ts';
import { createBotMetrics } from '../../src/metrics/bot-metrics.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { startTestPortal, type TestPortal } from '../support/test-portal.ts';

// `printf '/export spec ДП-77/2026\n' | npm start`: the real bot in the console chat, its input
// ended at once, still saves the file, since the chat waits for the exports before it closes.

let portal: TestPortal;
let dir: string;
beforeAll(async () => {
  portal = await startTestPortal();
  dir = mkdtempSync(join(tmpdir(), 'console-export-'));
});
afterAll(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an export in the console chat with piped input', () => {
  it('saves the file before the chat closes, even when its pages come after the input ended', async () => {
    const config = parseConfig({ PORTAL_URL: portal.url, PORTAL_TOKEN: portal.token, ALLOW_ANYONE: 'true', DATA_DIR: join(dir, 'data'), PORTAL_CACHE_SECONDS: '0' });
    const logger = pino({ level: 'silent' });
    const metrics = createBotMetrics();
    const opened = await openPortal(config.portal, logger, metrics);
    const store = openSqliteStore({ dataDir: config.dataDir });
    const exports = createExports({ portal: opened.portal.bulk, ...config.export, logger, now: () => new Date() });
    // The export's second page comes late: after the chat has read all of its input.
    const held = portal.hangWhere((url) => url.includes('limit=20') && url.includes('offset=20'));
    const late = setInterval(() => {
      if (held.count() > 0) setTimeout(() => held.release(), 300);
    }, 20);
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      await runConsoleChat({
        input: Readable.from(['/export order status production\n']),
        output,
        languageCode: 'en',
        intro: 'hello',
        logger,
        saveDir: dir,
        idle: exports.idle,
        createBot: (apiRoot, token) =>
          createBot({ token, config: { ...config, telegramApiRoot: apiRoot }, portal: opened.portal, store, logger, metrics, demo: false, exports }),
      });
    } finally {
      clearInterval(late);
      await store.close();
    }
    expect(held.count()).toBe(1);
    const saved = readdirSync(dir).filter((name) => name.endsWith('.xlsx'));
    expect(saved).toHaveLength(1);
    expect(printed).toContain(`📎 ${join(dir, saved[0]!)}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(dir, saved[0]!));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Orders', 'Positions']);
    expect((workbook.getWorksheet('Orders')?.rowCount ?? 0) - 1).toBe(21);
  });
});
