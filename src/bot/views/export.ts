import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import { DocumentTooLargeForServerError, DocumentUploadTimeoutError } from '../../telegram/send-document.ts';
import { PortalPagesMovedError, RecordsTooLargeError } from '../../portal/fetch-all.ts';
import type { ExportCaption, ExportViews } from '../../export/run-export.ts';
import { ExportStoppedError } from '../../export/stopped.ts';
import { packCallback, type QueryRef } from '../callback-data/codec.ts';
import type { LookupArgs } from '../lookup-args.ts';
import { joinLines } from './common/card-parts.ts';
import { describeQuery } from './common/describe-query.ts';
import type { View } from '../../telegram/view.ts';
import { renderError, withUsage } from './notices.ts';
import { withViews } from './resources.ts';
import { renderNothingFound } from './results.ts';

// The progress message of an Excel export, the file's caption and note, and what went wrong.

const plain = (text: string): View => ({ text, keyboard: [] });

export const renderExportUsage = (failure: Exclude<LookupArgs, { ok: true }>, t: Translate): string => withUsage(t('export.usage'), failure, t);

/** Waiting for one of the EXPORT_CONCURRENCY slots: its place in line, 1 the next. */
export const renderExportQueued = (place: number, t: Translate): View => plain(t('export.queued', { place }));

export const renderExportStarting = (t: Translate): View => plain(t('export.starting'));

/** «Выгружаю: 40 из 123». */
export const renderExportProgress = (done: number, total: number, t: Translate, fmt: Formatter): View =>
  plain(t('export.progress', { done: fmt.pieces(done), total: fmt.pieces(total) }));

export const renderExportWriting = (t: Translate): View => plain(t('export.writing'));

/**
 * What a file holds when the query found more than one export takes (EXPORT_MAX_RECORDS, or with
 * `cut` the memory an export may take); plain text (the workbook's note row too).
 */
export const renderExportCapped = (shown: number, total: number, t: Translate, fmt: Formatter, cut?: true): string =>
  t(cut ? 'export.cappedMemory' : 'export.capped', { shown: fmt.pieces(shown), total: fmt.pieces(total) });

/** A moment no export is made on: the caption's time always comes with its date. */
const ANOTHER_DAY = new Date(0);

/**
 * The document's caption (HTML): the filter, how many records (and the cut), when the data was
 * fetched, always with the day: a file is kept, forwarded and opened days later.
 */
export const renderExportCaption = ({ query, shown, total, fetchedAt, cut }: ExportCaption, t: Translate, fmt: Formatter): string =>
  joinLines([
    t(query.resource === 'order' ? 'export.orders' : 'export.specifications', { query: describeQuery(query, t, fmt) }),
    shown < total ? renderExportCapped(shown, total, t, fmt, cut) : t('export.records', { count: shown }),
    t('export.fetchedAt', { when: fmt.dateTime(fetchedAt, ANOTHER_DAY) }),
  ]);

const MEGABYTE = 1024 * 1024;

/** Megabytes to one decimal, rounded up: a file is never said to be smaller than it is. */
const megabytes = (bytes: number, fmt: Formatter): string => fmt.number(Math.ceil((bytes / MEGABYTE) * 10) / 10);

const failureText = (error: unknown, t: Translate, fmt: Formatter): string => {
  if (error instanceof PortalPagesMovedError) return t('export.moved');
  if (error instanceof RecordsTooLargeError) return t('export.tooBig');
  if (error instanceof ExportStoppedError) return t('export.stopped');
  if (error instanceof DocumentUploadTimeoutError) return t('export.uploadTimeout');
  if (error instanceof DocumentTooLargeForServerError) return t('export.tooLargeForServer', { size: megabytes(error.size, fmt) });
  return renderError(error, t);
};

/**
 * The export stopped: why, in the words every failure gets, and a button that starts it again;
 * none when the same query or file would be refused again (even a first page more than an export
 * may hold; the Bot API server's body limit).
 */
export const renderExportFailed = (error: unknown, ref: QueryRef, t: Translate, fmt: Formatter): View => ({
  text: t('export.failed', { error: failureText(error, t, fmt) }),
  keyboard: error instanceof DocumentTooLargeForServerError || error instanceof RecordsTooLargeError ? [] : [[{ text: t('buttons.tryAgain'), callback_data: packCallback({ type: 'export', ref }) }]],
});

/** A file over Telegram's limit for bots' documents. */
export const renderExportTooLarge = (bytes: number, maxBytes: number, t: Translate, fmt: Formatter): View =>
  plain(t('export.tooLarge', { size: megabytes(bytes, fmt), max: fmt.number(maxBytes / MEGABYTE) }));

/** What an export shows (src/export/run-export.ts), in this language; "Try again" starts `ref` again. */
export const exportViews = (t: Translate, fmt: Formatter, ref: QueryRef): ExportViews => ({
  queued: (place) => renderExportQueued(place, t),
  starting: () => renderExportStarting(t),
  progress: (done, total) => renderExportProgress(done, total, t, fmt),
  writing: () => renderExportWriting(t),
  nothingFound: (query) => renderNothingFound(query, t, fmt),
  capped: (shown, total, cut) => renderExportCapped(shown, total, t, fmt, cut),
  caption: (caption) => renderExportCaption(caption, t, fmt),
  failed: (error) => renderExportFailed(error, ref, t, fmt),
  tooLarge: (bytes, maxBytes) => renderExportTooLarge(bytes, maxBytes, t, fmt),
  sheets: (records) => withViews(records, (items, views) => views.exportSheets(items, t, fmt)),
});
