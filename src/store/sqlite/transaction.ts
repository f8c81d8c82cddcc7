import type { DatabaseSync } from 'node:sqlite';

/**
 * Runs `work` in a write transaction taken at once (BEGIN IMMEDIATE): another process sharing the
 * file waits for it rather than reading rows this one is about to lease. Rolled back when it throws.
 */
export const immediately = <T>(db: DatabaseSync, work: () => T): T => {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
};
