import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBotProcesses } from '../support/process-fixture.ts';

// Exports in src/main.ts as the container runs it: the log on stderr stays JSON while ExcelJS
// loads and writes, and a SIGTERM while Telegram holds an upload unanswered ends within the grace.

const GRACE_MS = 2_000;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const f = useBotProcesses();

describe('exports in main.ts', () => {
  it("log Node's deprecation warning as one JSON line; a SIGTERM during an unanswered upload exits within the grace, telling the user, leaving no directory", async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'export-process-'));
    try {
      const bot = await f.start({ SHUTDOWN_GRACE_MS: String(GRACE_MS), PORTAL_TIMEOUT_MS: '5000', TMPDIR: tmp });
      await f.api.waitForPolling();
      const user = f.api.createUser({ language_code: 'en' });
      f.api.sendText({ from: user, text: '/export order status production' });
      // Done once its progress message is gone.
      await f.api.waitForCall('deleteMessage', { chatId: user.id });
      const [document] = f.api.documentsIn(user.id);
      expect(document?.upload_type).toBe(XLSX);
      // ExcelJS's zip library calls Buffer(): Node's warning is a log line, once, not plain text.
      expect(bot.garbage).toEqual([]);
      expect(bot.lines.filter((line) => line.msg === 'process warning')).toEqual([
        expect.objectContaining({ level: 30, warning: expect.objectContaining({ name: 'DeprecationWarning', code: 'DEP0005' }) }),
      ]);

      const held = f.api.holdNext('sendDocument');
      f.api.sendText({ from: user, text: '/export spec ДП-77/2026' });
      await f.api.waitFor(() => held.count() === 1, { description: 'the upload held by the Bot API' });
      const signalled = performance.now();
      bot.child.kill('SIGTERM');
      const exit = await bot.exited;
      held.release();
      expect(exit.code).toBe(0);
      // One grace, then the store's close and the log's flush: Docker's 10 s hold SHUTDOWN_GRACE_MS plus 3 s.
      expect(exit.at - signalled).toBeLessThan(GRACE_MS + 1_500);
      expect(f.api.messagesIn(user.id).at(-1)?.text).toBe('The bot is restarting.\n\nThe export stopped; no file was sent.');
      expect(f.api.documentsIn(user.id)).toHaveLength(1);
      expect(readdirSync(tmp).filter((name) => name.startsWith('bot-export-'))).toEqual([]);
      expect(bot.garbage).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
