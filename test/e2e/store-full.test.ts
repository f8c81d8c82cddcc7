import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// The disk fills up while the bot runs: a write the user asked for fails, and the user is told
// the bot cannot save right now, in their language; the log names the file.

/** Set once the file is filled: the bot's store may not grow past it, as on a full disk. */
let maxPageCount: number | undefined;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ openStore: (dataDir) => openSqliteStore({ dataDir, maxPageCount }) });
});
afterAll(() => h.close());

/**
 * Fills user_settings around these users' rows, so that each needs a new page, then caps the
 * file at its size. Rows appended in key order leave every page but the last one full (SQLite's
 * table b-trees split that way), and the filler rows are no larger than the bot's.
 */
const fillAround = (path: string, userIds: number[]) => {
  const db = new DatabaseSync(path);
  try {
    const now = Date.now();
    const add = db.prepare('INSERT INTO user_settings (user_id, updated_at) VALUES (?, ?)');
    for (let id = Math.min(...userIds) - 400; id < Math.max(...userIds) + 400; id += 1) if (!userIds.includes(id)) add.run(id, now);
    const pages = Number(db.prepare('PRAGMA page_count').get()?.page_count);
    // The bot's writes, tried and undone: each must need a page the file cannot have.
    db.exec(`PRAGMA max_page_count = ${pages}`);
    for (const id of userIds) {
      db.exec('BEGIN');
      try {
        expect(() => db.prepare("INSERT INTO user_settings VALUES (?, 'en', 10, ?)").run(id, now)).toThrow('database or disk is full');
      } finally {
        // SQLite may have rolled back by itself on SQLITE_FULL.
        if (db.isTransaction) db.exec('ROLLBACK');
      }
    }
    return pages;
  } finally {
    db.close();
  }
};

describe('a full disk while the bot runs', () => {
  it('tells the user the bot cannot save, in their language, and logs the file', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    const en = h.api.createUser({ language_code: 'en' });
    const languages = await h.ask(ru, '/lang');
    const sizes = await h.ask(en, '/pagesize');
    const path = join(h.dataDir, 'bot.sqlite');
    maxPageCount = fillAround(path, [ru.id, en.id]);
    await h.restart();

    const language = await h.press(ru, languages, h.button(languages, 'English'));
    expect(language.answer).toMatchObject({ show_alert: true, text: 'Бот сейчас не может сохранить данные. Попробуйте позже.' });
    expect(language.message?.edit_count).toBe(0);

    const size = await h.press(en, sizes, h.button(sizes, '10'));
    expect(size.answer).toMatchObject({ show_alert: true, text: 'The bot cannot save right now. Please try again later.' });

    expect((await h.ask(ru, '/settings')).text).toContain('Русский');

    const logged = h.logs.filter((line) => line.msg === 'the store could not save');
    expect(logged).toHaveLength(2);
    expect(logged.every((line) => line.path === path && line.level === 50)).toBe(true);
  });
});
