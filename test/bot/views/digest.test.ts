import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator, type Locale } from '../../../src/i18n.ts';
import type { Watch } from '../../../src/store/watch-store.ts';
import { MAX_DIGEST_MESSAGES, renderDigest } from '../../../src/bot/views/digest.ts';
import { digestContent, type DigestContent } from '../../../src/watch/digest-content.ts';
import { diffSnapshots } from '../../../src/watch/diff.ts';
import { snapshotOf } from '../../../src/watch/snapshot.ts';
import { makeOrder, makeSpecification, specificationPosition } from '../../fixtures/portal-records.ts';
import { formatMessageText } from '../../support/bot-api/text.ts';

const kit = (locale: Locale, zone = 'Asia/Yekaterinburg') => ({ t: createTranslator(locale), fmt: createFormatter(locale, zone) });
const ru = kit('ru');
const en = kit('en');
/** 09:00 in Yekaterinburg on 24.11.2026. */
const NOW = new Date('2026-11-24T04:00:00Z');
const sendable = (html: string) => formatMessageText({ text: html, parseMode: 'HTML', entities: undefined }, { strictHtmlAmpersand: true });

const watchOf = (id: number, query: Watch['target']['query']): Watch => ({ id, chatId: -100, targetKey: `k${id}`, target: { query }, createdBy: 7, locale: 'ru', createdAt: 0 });
const orderWatch = watchOf(1, { resource: 'order', filter: 'SAP_ID', value: '0007300100' });
const specWatch = watchOf(2, { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' });
const digest = { chatId: -100, minute: 540, quiet: false, locale: 'ru' as const, createdBy: 7, createdAt: 0, nextAt: 0, lastSentAt: Date.parse('2026-11-23T04:00:00Z') };

const before = snapshotOf({ resource: 'order', items: [makeOrder()] });
const after = snapshotOf({ resource: 'order', items: [makeOrder({ STATUS_TEXT: 'Отгружен', STATUS: 'shipped' })] });
const specs = snapshotOf({
  resource: 'specification',
  items: [makeSpecification({ POSITION: [specificationPosition(1, { MATERIAL_NAME: 'Труба 530х8', DATE_PLANNED_PRODUCTION: '2026-11-26 00:00:00' })] })],
});

const content = (more: Partial<DigestContent> = {}): DigestContent => ({
  ...digestContent(
    {
      digest,
      watches: [
        { watch: orderWatch, snapshot: JSON.stringify(after) },
        { watch: specWatch, snapshot: JSON.stringify(specs) },
      ],
      held: [{ watchId: 1, changes: JSON.stringify({ resource: 'order', foundAt: 0, changes: diffSnapshots(before, after) }) }],
    },
    '2026-11-24',
  ),
  ...more,
});

describe('the daily digest', () => {
  test('Russian: what changed, by watch, one line per record; the status of each record; the week’s plan by day', () => {
    const [message, ...more] = renderDigest(content(), ru.t, ru.fmt, NOW);
    expect(more).toEqual([]);
    expect(message?.text).toBe(
      [
        '🗓 <b>Сводка на 24.11.2026</b>',
        '<b>Что изменилось с 23.11.2026 09:00</b>',
        '<b>заказы, номер SAP «0007300100»</b>\n• <b>Заказ № 0007300100</b> от 15.03.2026: Статус: Производство → Отгружен',
        '<b>Статус сейчас</b>',
        '<b>заказы, номер SAP «0007300100»</b>\n• <b>Заказ № 0007300100</b> от 15.03.2026 — Отгружен',
        '<b>спецификации, номер договора «ДП-77/2026»</b>\n• <b>Спецификация № 12</b> · договор ДП-77/2026 — 20 (тип ZSD_DOG)',
        '<b>План производства на неделю</b>',
        '<u>26.11.2026</u>\n• <b>Спецификация № 12</b> · договор ДП-77/2026, поз. 000010, Труба 530х8',
      ].join('\n\n'),
    );
    expect(message?.keyboard).toEqual([]);
    expect(sendable(message!.text).text).toContain('Статус: Производство → Отгружен');
  });

  test('English likewise, with a digest that was missed said first', () => {
    const [message] = renderDigest(content({ missedAt: Date.parse('2026-11-23T04:00:00Z') }), en.t, en.fmt, NOW);
    expect(message?.text.split('\n\n').slice(0, 3)).toEqual([
      '🗓 <b>Digest for 24 Nov 2026</b>',
      '⚠ The digest for 23 Nov 2026 was not sent in time; its changes are in this one.',
      '<b>What changed since 23 Nov 2026, 09:00</b>',
    ]);
    expect(message?.text).toContain('<u>26 Nov 2026</u>\n• <b>Specification No. 12</b> · contract ДП-77/2026, pos. 000010, Труба 530х8');
    expect(message?.text).toContain('• <b>Specification No. 12</b> · contract ДП-77/2026 — 20 (type ZSD_DOG)');
  });

  test('nothing changed and nothing planned: one short line, or nothing for a quiet digest; nothing for a chat that watches nothing', () => {
    const still = content({ changed: 0, planned: [], watches: content().watches.map((watch) => ({ ...watch, changes: [] })) });
    expect(renderDigest({ ...still, records: 2 }, ru.t, ru.fmt, NOW)).toEqual([{ text: '🗓 Сводка на 24.11.2026: под наблюдением 2 записи, изменений нет.', keyboard: [] }]);
    expect(renderDigest({ ...still, records: 1 }, en.t, en.fmt, NOW)[0]?.text).toBe('🗓 Digest for 24 Nov 2026: 1 record watched, none changed.');
    expect([1, 2, 5, 11, 21].map((records) => renderDigest({ ...still, records }, ru.t, ru.fmt, NOW)[0]?.text.split(': ')[1])).toEqual([
      'под наблюдением 1 запись, изменений нет.',
      'под наблюдением 2 записи, изменений нет.',
      'под наблюдением 5 записей, изменений нет.',
      'под наблюдением 11 записей, изменений нет.',
      'под наблюдением 21 запись, изменений нет.',
    ]);
    expect(renderDigest({ ...still, quiet: true }, ru.t, ru.fmt, NOW)).toEqual([]);
    expect(renderDigest({ ...still, watches: [] }, ru.t, ru.fmt, NOW)).toEqual([]);
  });

  test('longer than one message: split at blocks, each part numbered and within 4096 characters; past the last part, a line says how much was left out', () => {
    const many = snapshotOf({
      resource: 'order',
      items: Array.from({ length: 100 }, (_, index) => makeOrder({ SAP_ID: String(7300100 + index).padStart(10, '0'), STATUS_TEXT: `Статус ${'x'.repeat(30)} ${index}` })),
    });
    const watches = Array.from({ length: 3 }, (_, index) => ({
      watch: watchOf(index + 1, { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: `труба ${index}` }),
      resource: 'order' as const,
      changes: [],
      records: Object.values(many.records),
    }));
    const big = content({ watches, changed: 1 });
    const parts = renderDigest(big, ru.t, ru.fmt, NOW);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.length).toBeLessThanOrEqual(MAX_DIGEST_MESSAGES);
    parts.forEach((part, index) => {
      expect(sendable(part.text).text.length).toBeLessThanOrEqual(4096);
      expect(part.text.startsWith(`🗓 <b>Сводка на 24.11.2026</b> (${index + 1}/${parts.length})`)).toBe(true);
    });
    // Every record's status line is in one of them, whole.
    expect(parts.map((part) => part.text).join('\n').match(/ — Статус x{30} \d+$/gm)).toHaveLength(300);

    const huge = content({ watches: [...watches, ...watches, ...watches, ...watches], changed: 1 });
    const cut = renderDigest(huge, en.t, en.fmt, NOW);
    expect(cut).toHaveLength(MAX_DIGEST_MESSAGES);
    expect(cut.at(-1)?.text).toMatch(/\n\n… and \d+ more lines left out: the full list is in \/watch\.$/);
    for (const part of cut) expect(sendable(part.text).text.length).toBeLessThanOrEqual(4096);
  });
});
