import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { EXPORT_DIR_PREFIX } from './run-export.ts';

/** A directory this old was left by a bot that died mid-export: no running export is that slow. */
export const STALE_EXPORT_DIR_MS = 60 * 60 * 1000;

/**
 * Removes the export directories (`bot-export-*`) in `tmpDir` last changed more than an hour ago:
 * what a killed bot left behind. Returns the names removed; a failure is only logged. Once, at
 * start, before updates are taken: synchronous, so that it does not start libuv's thread pool
 * (four threads and their memory) in a bot that never needs it.
 */
export const removeStaleExportDirs = ({
  tmpDir = tmpdir(),
  now = Date.now(),
  logger,
}: {
  tmpDir?: string;
  now?: number;
  logger: Pick<Logger, 'warn' | 'info'>;
}): string[] => {
  const removed: string[] = [];
  try {
    for (const name of readdirSync(tmpDir)) {
      if (!name.startsWith(EXPORT_DIR_PREFIX)) continue;
      const path = join(tmpDir, name);
      const info = statSync(path, { throwIfNoEntry: false });
      if (!info?.isDirectory() || now - info.mtimeMs <= STALE_EXPORT_DIR_MS) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(name);
    }
  } catch (error) {
    logger.warn({ err: error, tmpDir }, 'could not remove old export directories');
  }
  if (removed.length > 0) logger.info({ removed }, 'removed export directories a stopped bot left behind');
  return removed;
};
