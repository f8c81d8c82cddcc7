import { ExportStoppedError } from '../../../src/export/stopped.ts';
import { describe, expect, it } from 'vitest';
import {
  renderExportCaption,
  renderExportFailed,
  renderExportProgress,
  renderExportQueued,
  renderExportTooLarge,
  renderExportUsage,
} from '../../../src/bot/views/export.ts';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator, type Locale } from '../../../src/i18n.ts';
import { PortalHttpError, PortalTimeoutError } from '../../../src/portal/errors.ts';
import { DocumentTooLargeForServerError, DocumentUploadTimeoutError } from '../../../src/telegram/send-document.ts';
import { PortalPagesMovedError, RecordsTooLargeError } from '../../../src/portal/fetch-all.ts';
import { parseHtml } from '../../support/bot-api/html.ts';

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const ru = kit('ru');
const en = kit('en');
const production = { resource: 'order', filter: 'STATUS', value: 'production' } as const;
const contract = { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' } as const;
const fetchedAt = new Date('2026-11-23T11:05:00Z');

describe('export views', () => {
  it('show the progress with grouped numbers, and the place in line', () => {
    expect(renderExportProgress(1_000, 1_234, ru.t, ru.fmt).text).toBe('Выгружаю: 1\u00a0000 из 1\u00a0234');
    expect(renderExportProgress(40, 123, en.t, en.fmt)).toEqual({ text: 'Exporting: 40 of 123', keyboard: [] });
    expect(renderExportQueued(2, ru.t).text).toBe('Жду очереди: другие выгрузки уже идут, эта — 2-я в очереди.');
    expect(renderExportQueued(1, en.t).text).toBe('Waiting in line: other exports are running, this one is number 1 in line.');
  });

  it('caption the file with the filter, the count in plural forms, and the day and time the data was fetched', () => {
    const caption = (locale: typeof ru, shown: number, total = shown, query: typeof production | typeof contract = production) =>
      parseHtml(renderExportCaption({ query, shown, total, fetchedAt }, locale.t, locale.fmt)).text;
    expect([1, 2, 5, 11, 21].map((count) => caption(ru, count).split('\n')[1])).toEqual(['1 запись', '2 записи', '5 записей', '11 записей', '21 запись']);
    expect(caption(ru, 8, 8, contract)).toBe('📊 Спецификации: номер договора «ДП-77/2026»\n8 записей\nданные на 23.11.2026 14:05');
    expect(caption(en, 1)).toBe('📊 Orders: status “production”\n1 record\ndata as of 23 Nov 2026, 14:05');
    expect(caption(en, 1000, 1234)).toBe(
      '📊 Orders: status “production”\nThe file holds the first 1,000 of 1,234: no more fit in one export. Narrow the search to export them all.\ndata as of 23 Nov 2026, 14:05',
    );
  });

  it('say why an export stopped, in the words of every failure, with a Try again that exports again', () => {
    const ref = { query: production };
    expect(renderExportFailed(new PortalTimeoutError(500), ref, en.t, en.fmt)).toEqual({
      text: 'The portal cannot be reached or did not answer in time. Please try again in a minute.\n\nThe export stopped; no file was sent.',
      keyboard: [[{ text: '🔁 Try again', callback_data: 'e:o3=production' }]],
    });
    expect(renderExportFailed(new PortalHttpError(500), ref, ru.t, ru.fmt).text).toBe('Портал ответил ошибкой. Попробуйте позже.\n\nВыгрузка прервана, файл не отправлен.');
    expect(renderExportFailed(new PortalPagesMovedError('moved'), ref, en.t, en.fmt).text).toBe(
      "The portal's data changed while I was reading its pages.\n\nThe export stopped; no file was sent.",
    );
    expect(renderExportFailed(new ExportStoppedError(), ref, ru.t, ru.fmt)).toEqual({
      text: 'Бот перезапускается.\n\nВыгрузка прервана, файл не отправлен.',
      keyboard: [[{ text: '🔁 Повторить', callback_data: 'e:o3=production' }]],
    });
  });

  it('tell an upload Telegram did not take in time, with Try again; one the Bot API server refused as too large, without', () => {
    const ref = { query: production };
    expect(renderExportFailed(new DocumentUploadTimeoutError(3_000_000, 42_000), ref, en.t, en.fmt)).toEqual({
      text: 'Telegram did not take the file in time.\n\nThe export stopped; no file was sent.',
      keyboard: [[{ text: '🔁 Try again', callback_data: 'e:o3=production' }]],
    });
    expect(renderExportFailed(new DocumentUploadTimeoutError(3_000_000, 42_000), ref, ru.t, ru.fmt).text).toBe(
      'Telegram не принял файл вовремя.\n\nВыгрузка прервана, файл не отправлен.',
    );
    // Sending the same file again would be refused again: no button.
    expect(renderExportFailed(new DocumentTooLargeForServerError(2_500_000), ref, en.t, en.fmt)).toEqual({
      text:
        'The file (2.4 MB) is too large for the Bot API server this bot sends through: it refused it. Trying again will not help: tell the administrator, or narrow the search.' +
        '\n\nThe export stopped; no file was sent.',
      keyboard: [],
    });
    expect(renderExportFailed(new DocumentTooLargeForServerError(2_500_000), ref, ru.t, ru.fmt).text).toBe(
      'Файл (2,4 МБ) слишком велик для сервера Bot API, через который работает бот: сервер его не принял. Повтор не поможет: сообщите администратору или уточните запрос.' +
        '\n\nВыгрузка прервана, файл не отправлен.',
    );
  });

  it('tell a file cut by the memory an export may take apart from one cut at EXPORT_MAX_RECORDS', () => {
    const caption = (locale: typeof ru) => parseHtml(renderExportCaption({ query: production, shown: 360, total: 1000, fetchedAt, cut: true }, locale.t, locale.fmt)).text.split('\n')[1];
    expect(caption(en)).toBe('The file holds the first 360 of 1,000: these records are so large that no more fit in the memory one export may take. Narrow the search to export them all.');
    expect(caption(ru)).toBe('В файле первые 360 из 1\u00a0000: записи такие объёмные, что больше не помещается в память, отведённую на одну выгрузку. Уточните запрос, чтобы выгрузить все.');
  });

  it('refuse records of which not even a first page fits, with no Try again: the same query would fail again', () => {
    const ref = { query: production };
    expect(renderExportFailed(new RecordsTooLargeError('over', 1000), ref, en.t, en.fmt)).toEqual({
      text: 'These records are too large: not even the first 20 fit in the memory one export may take. Narrow the search.\n\nThe export stopped; no file was sent.',
      keyboard: [],
    });
    expect(renderExportFailed(new RecordsTooLargeError('over', 1000), ref, ru.t, ru.fmt).text).toBe(
      'Записи слишком объёмные: даже первые 20 не помещаются в память, отведённую на одну выгрузку. Уточните запрос.\n\nВыгрузка прервана, файл не отправлен.',
    );
  });

  it('tell a file over Telegram’s limit, and the usage with what was wrong', () => {
    expect(renderExportTooLarge(60 * 1024 * 1024 + 1, 50 * 1024 * 1024, en.t, en.fmt).text).toBe(
      'The file came out at 60.1 MB, over the 50 MB Telegram accepts. Narrow the search.',
    );
    expect(renderExportUsage({ ok: false, reason: 'empty' }, ru.t)).toMatch(/^Укажите, что выгрузить в Excel/);
    expect(renderExportUsage({ ok: false, reason: 'badDate', value: '32.13.2026' }, en.t)).toMatch(/^“32\.13\.2026” is not a date I can read.*\n\nTell me what to export/s);
  });
});
