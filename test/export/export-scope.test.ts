import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { removeStaleExportDirs } from '../../src/export/stale-dirs.ts';
import { callWithinDeadline, HandlerDeadlineError, outsideUpdateScope, runInUpdateScope } from '../../src/telegram/update-scope.ts';

// What an export needs beyond its own run: an async context free of the update that started it,
// and a temporary directory cleared of what a killed bot left.

const logger = pino({ level: 'silent' });

describe('an export beside the updates', () => {
  it("keeps its Telegram calls past the deadline of the update that started it (the update's own are cut)", async () => {
    let exported: Promise<string> | undefined;
    let inline: Promise<string> | undefined;
    const work = async () => {
      await sleep(60);
      return callWithinDeadline('sendDocument', undefined, async () => 'sent');
    };
    await runInUpdateScope({ updateId: 1, deadlineMs: 20, logger }, async () => {
      exported = outsideUpdateScope(work);
      inline = work();
      // The handler outlives its deadline.
      await sleep(40);
    });
    expect(await exported).toBe('sent');
    await expect(inline).rejects.toBeInstanceOf(HandlerDeadlineError);
  });

  it('removes at start the export directories older than an hour, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stale-dirs-test-'));
    try {
      const now = Date.now();
      for (const name of ['bot-export-old', 'bot-export-new', 'other-old']) mkdirSync(join(dir, name));
      const twoHoursAgo = (now - 2 * 60 * 60 * 1000) / 1000;
      utimesSync(join(dir, 'bot-export-old'), twoHoursAgo, twoHoursAgo);
      utimesSync(join(dir, 'other-old'), twoHoursAgo, twoHoursAgo);
      expect(removeStaleExportDirs({ tmpDir: dir, now, logger })).toEqual(['bot-export-old']);
      expect(readdirSync(dir).sort()).toEqual(['bot-export-new', 'other-old']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
