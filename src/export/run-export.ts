import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { callBotApi, type Telegram } from '../telegram/telegraf/core.ts';
import { DATE_FORMATS } from './cell-format.ts';
import { exportFileName, XLSX_MIME_TYPE } from './file-name.ts';
import type { Formatter } from '../format.ts';
import type { PortalClient } from '../portal/client.ts';
import type { MemoryLease } from '../memory-budget.ts';
import type { Query } from '../query.ts';
import { MAX_DOCUMENT_BYTES, sendDocument } from '../telegram/send-document.ts';
import type { View } from '../telegram/view.ts';
import type { Sheet } from './sheet.ts';
import type { ExportTurn } from './slots.ts';
import { ExportStoppedError } from './stopped.ts';
import { fetchWithProgress, type ExportRecords } from './fetch-with-progress.ts';
import { createProgressMessage, type ProgressMessage } from './progress-message.ts';

export type ExportCaption = { query: Query; shown: number; total: number; fetchedAt: Date; cut?: true | undefined };

/**
 * What an export shows, in the user's language: the bot's views (src/bot/views/export.ts) bound
 * to it, so that this folder knows no locale strings and no button data.
 */
export type ExportViews = {
  /** Waiting for a slot: its place in line, 1 the next. */
  queued(place: number): View;
  starting(): View;
  progress(done: number, total: number): View;
  writing(): View;
  nothingFound(query: Query): string;
  /** The workbook's note row when it holds fewer records than the query found. */
  capped(shown: number, total: number, cut?: true): string;
  caption(caption: ExportCaption): string;
  /** Why it stopped, with "Try again" where trying again can help. */
  failed(error: unknown): View;
  tooLarge(bytes: number, maxBytes: number): View;
  sheets(records: ExportRecords): Sheet[];
};

/** Where and for whom an export runs, and what it exports. */
export type ExportJob = {
  telegram: Telegram;
  chatId: number;
  /** The forum topic the command or the pressed message is in. */
  threadId?: number;
  /** In a group, the message the progress and the file reply to (the command, or the results). */
  replyTo?: number;
  userId: number;
  query: Query;
  /** The file's name and dates, in the user's locale. */
  fmt: Formatter;
  views: ExportViews;
  turn: ExportTurn;
  /** What its records may take of the heap. */
  memory?: MemoryLease;
};

export type ExportDeps = {
  /** Where the pages are read; its `fresh`, past the cache, reads them again when they disagreed. */
  portal: PortalClient & { fresh?: PortalClient };
  maxRecords: number;
  logger: Logger;
  now: () => Date;
  /** For the pace of progress edits: milliseconds, only differences count. */
  clock?: () => number;
  /** Where files are written before they are sent; each export in a directory of its own, removed after. */
  tmpDir?: string;
  maxDocumentBytes?: number;
  /** The upload's own deadline for a file of `bytes` (default: send-document.ts's uploadDeadlineMs). */
  uploadDeadlineMs?: (bytes: number) => number;
  /** Aborted when the bot stops: the export ends between two pages or rows, told as stopped. */
  signal?: AbortSignal;
  /** Told how each export ended (metrics and /stats count them). */
  onFinished?: (outcome: ExportOutcome, query: Query) => void;
};

export type ExportOutcome = 'sent' | 'empty' | 'too_large' | 'failed';

/** Each export's temporary directory: `bot-export-` and a random tail; start-up removes old ones. */
export const EXPORT_DIR_PREFIX = 'bot-export-';

/** ExcelJS takes some 40 MB and a third of a second to load: only a bot that exports pays for it, at its first export. */
const loadWriter = () => import('./write-workbook.ts');

/**
 * One export from its first message to its file: a progress message in the chat (its place in
 * line while it waits), every record fetched page by page with the count shown every two seconds,
 * the workbook written to a temporary file, checked and sent, the progress message deleted. A
 * failure anywhere sends no file: the progress message says why, with "Try again". The temporary
 * file and the user's turn are always given back.
 */
export const runExport = async (job: ExportJob, deps: ExportDeps): Promise<void> => {
  const { telegram, chatId, fmt, views, query } = job;
  const { logger, now, maxRecords, maxDocumentBytes = MAX_DOCUMENT_BYTES, signal } = deps;
  const place = { ...(job.threadId === undefined ? {} : { message_thread_id: job.threadId }) };
  const reply = job.replyTo === undefined ? {} : { reply_parameters: { message_id: job.replyTo, allow_sending_without_reply: true } };
  const started = performance.now();
  const log = { userId: job.userId, chatId, resource: query.resource, filter: query.filter, value: query.value };
  let progress: ProgressMessage | undefined;
  let dir: string | undefined;
  /** The file is in the chat: from here on nothing is the user's failure. */
  let sent = false;
  /** The bot stopping is told as such, whatever the abort interrupted. */
  const stopped = (error: unknown): unknown => (signal?.aborted ? new ExportStoppedError() : error);

  /** The end of the export in its progress message; a new message when the user deleted that one. */
  const finish = async (view: View) => {
    if (progress) await progress.show(view);
    if (progress && !progress.gone()) return;
    await callBotApi(telegram, 'sendMessage', { chat_id: chatId, text: view.text, parse_mode: 'HTML', ...place, ...reply, reply_markup: { inline_keyboard: view.keyboard } });
  };

  /** The temporary directory goes; a failure to remove it is only logged (start-up sweeps old ones). */
  const removeDir = async () => {
    if (dir === undefined) return;
    const gone = dir;
    dir = undefined;
    await rm(gone, { recursive: true, force: true }).catch((error: unknown) => logger.warn({ err: error, dir: gone }, 'could not remove an export directory'));
  };

  try {
    const waiting = job.turn.place();
    const first = waiting > 0 ? views.queued(waiting) : views.starting();
    const message = await telegram.sendMessage(chatId, first.text, { parse_mode: 'HTML', ...place, ...reply });
    progress = createProgressMessage({ telegram, chatId, messageId: message.message_id, logger, ...(deps.clock ? { clock: deps.clock } : {}) });
    const shown = progress;
    await job.turn.started((next) => void shown.show(views.queued(next)).catch((error: unknown) => logger.warn({ err: error, chatId }, 'an export progress edit failed')));
    signal?.throwIfAborted();
    if (waiting > 0) await shown.show(views.starting());

    const all = await fetchWithProgress(deps.portal, query, maxRecords, (done, wanted) => shown.tick(views.progress(done, wanted)), signal, job.memory);
    const fetchedAt = now();
    const fetchMs = Math.round(performance.now() - started);
    if (all.items.length === 0) {
      logger.info({ audit: true, ...log, records: 0, total: all.total, ms: Math.round(performance.now() - started) }, 'export');
      deps.onFinished?.('empty', query);
      return await finish({ text: views.nothingFound(query), keyboard: [] });
    }
    await shown.show(views.writing());
    dir = await mkdtemp(join(deps.tmpDir ?? tmpdir(), EXPORT_DIR_PREFIX));
    const filename = exportFileName(query, fmt.day(fetchedAt));
    const path = join(dir, filename);
    const capped = all.items.length < all.total;
    const { writeWorkbook } = await loadWriter();
    const { bytes } = await writeWorkbook({
      path,
      sheets: views.sheets(all),
      dates: DATE_FORMATS[fmt.locale],
      ...(capped ? { note: views.capped(all.items.length, all.total, all.cut) } : {}),
      ...(signal ? { signal } : {}),
    });
    const writeMs = Math.round(performance.now() - started) - fetchMs;
    if (bytes > maxDocumentBytes) {
      logger.warn({ ...log, bytes }, 'an export is larger than Telegram takes');
      deps.onFinished?.('too_large', query);
      return await finish(views.tooLarge(bytes, maxDocumentBytes));
    }
    const caption = views.caption({ query, shown: all.items.length, total: all.total, fetchedAt, cut: all.cut });
    signal?.throwIfAborted();
    // The bot stopping gives the upload up too: its message then says so, and the directory goes.
    const upload = { ...(signal ? { signal } : {}), ...(deps.uploadDeadlineMs ? { deadlineMs: deps.uploadDeadlineMs } : {}) };
    await sendDocument(telegram, { chat_id: chatId, ...place, ...reply, caption, parse_mode: 'HTML', document: { filename, path, type: XLSX_MIME_TYPE } }, upload);
    sent = true;
    deps.onFinished?.('sent', query);
    // Done once the file is there: the next export may start before the progress message goes.
    // Each step on its own: one failing is logged, and the others still happen.
    for (const step of [removeDir, async () => job.turn.end(), () => shown.remove()]) {
      await step().catch((error: unknown) => logger.warn({ err: error, ...log }, 'an export was sent, but cleaning up after it failed'));
    }
    const ms = Math.round(performance.now() - started);
    logger.info({ audit: true, ...log, records: all.items.length, total: all.total, ...(all.cut ? { cut: 'memory' } : {}), bytes, fetchMs, writeMs, ms }, 'export');
  } catch (caught) {
    if (sent) {
      logger.warn({ err: caught, ...log }, 'an export was sent, but cleaning up after it failed');
      return;
    }
    const error = stopped(caught);
    logger.warn({ err: error, ...log, ms: Math.round(performance.now() - started) }, 'export failed');
    deps.onFinished?.('failed', query);
    await finish(views.failed(error)).catch((tellError: unknown) =>
      logger.error({ err: tellError, chatId }, 'could not tell the user an export failed'),
    );
  } finally {
    await removeDir();
    job.turn.end();
  }
};
