import { describe, expect, it } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator, type Locale } from '../../../src/i18n.ts';
import type { Watch } from '../../../src/store/watch-store.ts';
import { renderWatchList } from '../../../src/bot/views/watch-list.ts';
import { formatInterval } from '../../../src/bot/views/watch-notices.ts';
import { unpackCallback } from '../../../src/bot/callback-data/codec.ts';

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale, 'Europe/Moscow') });
const ru = kit('ru');
const en = kit('en');
const now = new Date('2026-11-23T11:05:00Z');

const watch = (id: number, overrides: Partial<Watch> = {}): Watch => ({
  id,
  chatId: 1,
  targetKey: `key-${id}`,
  target: { query: { resource: 'order', filter: 'SAP_ID', value: `00073001${String(id).padStart(2, '0')}` } },
  createdBy: 1,
  locale: 'ru',
  createdAt: Date.parse('2026-11-20T09:00:00Z'),
  ...overrides,
});

const labels = (keyboard: Array<Array<{ text: string }>>) => keyboard.map((row) => row.map((button) => button.text));

describe('the /watch list', () => {
  it('Russian: numbered watches, since when, the last change or none, its options, a 🔕 and a ⚙ each', () => {
    const spec = watch(7, {
      target: { query: { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' }, sapId: '1000000006' },
      lastChangeAt: Date.parse('2026-11-23T08:30:00Z'),
      statusOnly: true,
      digestOnly: true,
      snoozedUntil: Date.parse('2026-11-24T11:05:00Z'),
    });
    // A snooze that has ended (waiting for its wake round) is shown as none.
    const view = renderWatchList([watch(3, { snoozedUntil: Date.parse('2026-11-23T11:00:00Z') }), spec], 0, ru.t, ru.fmt, now);
    expect(view.text).toBe(
      [
        '<b>Наблюдения 1–2 из 2</b>',
        '',
        '<b>1.</b> заказы, номер SAP «0007300103»',
        'с 20.11.2026; изменений не было',
        '',
        '<b>2.</b> спецификация, номер SAP 1000000006 (номер договора «ДП-77/2026»)',
        'с 20.11.2026; последнее изменение 11:30',
        'только статус · только в сводке · ⏸ на паузе до 24.11.2026 14:05',
      ].join('\n'),
    );
    expect(labels(view.keyboard)).toEqual([['🔕 1', '🔕 2'], ['⚙ 1', '⚙ 2']]);
    expect(view.keyboard.flat().map((button) => unpackCallback('callback_data' in button ? button.callback_data : ''))).toEqual([
      { type: 'unwatch', watchId: 3 },
      { type: 'unwatch', watchId: 7 },
      { type: 'watchSettings', watchId: 3, offset: 0 },
      { type: 'watchSettings', watchId: 7, offset: 0 },
    ]);
  });

  it('English: the same in English, with a change on another day dated', () => {
    const view = renderWatchList([watch(3, { lastChangeAt: Date.parse('2026-11-21T12:00:00Z') })], 0, en.t, en.fmt, now);
    expect(view.text).toBe(['<b>Watches 1–1 of 1</b>', '', '<b>1.</b> orders, SAP no. “0007300103”', 'since 20 Nov 2026; last change 21 Nov 2026, 15:00'].join('\n'));
  });

  it('pages by ten with ◀ ▶, and shows the last page when the list got shorter', () => {
    const watches = Array.from({ length: 23 }, (_, index) => watch(index + 1));
    const first = renderWatchList(watches, 0, en.t, en.fmt, now);
    // ◀ on the first page and ▶ on the last are there, disabled.
    expect(labels(first.keyboard).at(-1)).toEqual(['◀', '1/3', '▶']);
    expect(first.keyboard.at(-1)?.[0]).toEqual({ text: '◀', disabled: {} });
    expect(first.keyboard.flat()).toHaveLength(10 + 10 + 3);
    const last = renderWatchList(watches, 40, en.t, en.fmt, now);
    expect(last.text.split('\n')[0]).toBe('<b>Watches 21–23 of 23</b>');
    expect(labels(last.keyboard)).toEqual([['🔕 21', '🔕 22', '🔕 23'], ['⚙ 21', '⚙ 22', '⚙ 23'], ['◀', '3/3', '▶']]);
    expect(last.keyboard.at(-1)?.[2]).toEqual({ text: '▶', disabled: {} });
    expect(last.keyboard[0]?.[0]).toMatchObject({ style: 'danger' });
  });

  it('empty: says how to add one, in both languages', () => {
    expect(renderWatchList([], 0, ru.t, ru.fmt, now)).toEqual({
      text: 'В этом чате я пока ни за чем не слежу. Отправьте, например, <code>/watch 0007300100</code> или <code>/watch spec ДП-77/2026</code>, или нажмите 🔔 под результатами поиска.',
      keyboard: [],
    });
    expect(renderWatchList([], 0, en.t, en.fmt, now).text).toMatch(/^Nothing is watched in this chat yet\./);
  });
});

describe('the poll interval, readably', () => {
  it('in the largest whole unit, with Russian plurals', () => {
    expect([300_000, 60_000, 120_000, 1_260_000, 3_600_000, 7_200_000, 18_000_000, 90_000, 1_000].map((ms) => formatInterval(ms, ru.t))).toEqual([
      '5 минут', '1 минуту', '2 минуты', '21 минуту', '1 час', '2 часа', '5 часов', '90 секунд', '1 секунду',
    ]);
    expect([300_000, 60_000, 3_600_000, 90_000].map((ms) => formatInterval(ms, en.t))).toEqual(['5 minutes', '1 minute', '1 hour', '90 seconds']);
  });
});
