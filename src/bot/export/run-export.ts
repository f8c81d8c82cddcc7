import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Telegram } from 'telegraf';
import { exportFileName } from '../../export/file-name.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { PortalClient } from '../../portal/client.ts';
import type { Query } from '../../portal/query.ts';
import { MAX_DOCUMENT_BYTES, sendDocument } from '../../telegram/send-document.ts';
import type { QueryRef } from '../callback-data/codec.ts';
import type { View } from '../views/common/view.ts';
import {
  renderExportCaption,
  renderExportCapped,
  renderExportFailed,
  renderExportProgress,
  renderExportQueued,
  renderExportStarting,
  renderExportTooLarge,
  renderExportWriting,
} from '../views/export.ts';
import { withViews } from '../views/resources.ts';
import { renderNothingFound } from '../views/results.ts';
import type { ExportTurn } from './export-slots.ts';
import { fetchWithProgress } from './fetch-with-progress.ts';
import { createProgressMessage, type ProgressMessage } from './progress-message.ts';

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
  /** What "Try again" starts again. */
  ref: QueryRef;
  t: Translate;
  fmt: Formatter;
  turn: ExportTurn;
};

export type ExportDeps = {
  portal: PortalClient;
  maxRecords: number;
  logger: Logger;
  now: () => Date;
  /** For the pace of progress edits: milliseconds, only differences count. */
  clock?: () => number;
  /** Where files are written before they are sent; each export in a directory of its own, removed after. */
  tmpDir?: string;
  maxDocumentBytes?: number;
};

/** ExcelJS takes some 40 MB and a third of a second to load: only a bot that exports pays for it, at its first export. */
const loadWriter = () => import('../../export/write-workbook.ts');

/** The bot's calendar day of a moment, yyyy-MM-dd, for the file name. */
const dayIn = (moment: Date, timeZone: string): string => {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(moment);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
};

/**
 * One export from its first message to its file: a progress message in the chat (its place in
 * line while it waits), every record fetched page by page with the count shown every two seconds,
 * the workbook written to a temporary file, checked and sent, the progress message deleted. A
 * failure anywhere sends no file: the progress message says why, with "Try again". The temporary
 * file and the user's turn are always given back.
 */
export const runExport = async (job: ExportJob, deps: ExportDeps): Promise<void> => {
  const { telegram, chatId, t, fmt, query } = job;
  const { logger, now, maxRecords, maxDocumentBytes = MAX_DOCUMENT_BYTES } = deps;
  const place = { ...(job.threadId === undefined ? {} : { message_thread_id: job.threadId }) };
  const reply = job.replyTo === undefined ? {} : { reply_parameters: { message_id: job.replyTo, allow_sending_without_reply: true } };
  const started = performance.now();
  const log = { userId: job.userId, chatId, resource: query.resource, filter: query.filter, value: query.value };
  let progress: ProgressMessage | undefined;
  let dir: string | undefined;

  /** The end of the export in its progress message; a new message when the user deleted that one. */
  const finish = async (view: View) => {
    if (progress) await progress.show(view);
    if (progress && !progress.gone()) return;
    await telegram.sendMessage(chatId, view.text, { parse_mode: 'HTML', ...place, ...reply, reply_markup: { inline_keyboard: view.keyboard } });
  };

  try {
    const waiting = job.turn.place();
    const first = waiting > 0 ? renderExportQueued(waiting, t) : renderExportStarting(t);
    const message = await telegram.sendMessage(chatId, first.text, { parse_mode: 'HTML', ...place, ...reply });
    progress = createProgressMessage({ telegram, chatId, messageId: message.message_id, logger, ...(deps.clock ? { clock: deps.clock } : {}) });
    const shown = progress;
    await job.turn.started((next) => void shown.show(renderExportQueued(next, t)).catch((error: unknown) => logger.warn({ err: error, chatId }, 'an export progress edit failed')));
    if (waiting > 0) await shown.show(renderExportStarting(t));

    const all = await fetchWithProgress(deps.portal, query, maxRecords, (done, wanted) => shown.tick(renderExportProgress(done, wanted, t, fmt)));
    const fetchedAt = now();
    const fetchMs = Math.round(performance.now() - started);
    if (all.items.length === 0) {
      logger.info({ audit: true, ...log, records: 0, total: all.total, ms: Math.round(performance.now() - started) }, 'export');
      return await finish({ text: renderNothingFound(query, t, fmt), keyboard: [] });
    }
    await shown.show(renderExportWriting(t));
    dir = await mkdtemp(join(deps.tmpDir ?? tmpdir(), 'bot-export-'));
    const filename = exportFileName(query, dayIn(fetchedAt, fmt.timeZone));
    const path = join(dir, filename);
    const capped = all.items.length < all.total;
    const { writeWorkbook } = await loadWriter();
    const { bytes } = await writeWorkbook({
      path,
      sheets: withViews(all, (items, views) => views.exportSheets(items, t, fmt)),
      ...(capped ? { note: renderExportCapped(all.items.length, all.total, t, fmt) } : {}),
    });
    const writeMs = Math.round(performance.now() - started) - fetchMs;
    if (bytes > maxDocumentBytes) {
      logger.warn({ ...log, bytes }, 'an export is larger than Telegram takes');
      return await finish(renderExportTooLarge(bytes, maxDocumentBytes, t, fmt));
    }
    const caption = renderExportCaption({ query, shown: all.items.length, total: all.total, fetchedAt, now: now() }, t, fmt);
    await sendDocument(telegram, { chat_id: chatId, ...place, ...reply, caption, parse_mode: 'HTML', document: { filename, path } });
    // Done once the file is there: the next export may start before the progress message goes.
    await rm(dir, { recursive: true, force: true });
    dir = undefined;
    job.turn.end();
    await shown.remove();
    const ms = Math.round(performance.now() - started);
    logger.info({ audit: true, ...log, records: all.items.length, total: all.total, bytes, fetchMs, writeMs, ms }, 'export');
  } catch (error) {
    logger.warn({ err: error, ...log, ms: Math.round(performance.now() - started) }, 'export failed');
    await finish(renderExportFailed(error, job.ref, t)).catch((tellError: unknown) =>
      logger.error({ err: tellError, chatId }, 'could not tell the user an export failed'),
    );
  } finally {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    job.turn.end();
  }
};
