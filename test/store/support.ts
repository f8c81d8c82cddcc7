import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach } from 'vitest';

/** A fresh temporary directory per call, removed after each test. */
export const useTempDirs = (): (() => string) => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'bot-store-'));
    dirs.push(dir);
    return dir;
  };
};

export const createClock = (start = Date.UTC(2026, 0, 1)) => {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
};

/** A second connection to the store's file, to look at (or tamper with) the rows directly. */
export const withRawDb = <T>(dir: string, use: (db: DatabaseSync) => T): T => {
  const db = new DatabaseSync(join(dir, 'bot.sqlite'));
  try {
    return use(db);
  } finally {
    db.close();
  }
};

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
