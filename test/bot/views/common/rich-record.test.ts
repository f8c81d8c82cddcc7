import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../../../src/i18n.ts';
import { MAX_RICH_PARTS, renderRichRecord, withFooter, type RichContent } from '../../../../src/bot/views/common/rich-record.ts';
import { readRichMessage } from '../../../support/bot-api/rich-message.ts';

const en = createTranslator('en');

const content = (rows: number, name = 'Pipe', items = 0): RichContent => ({
  title: '<b>Order No. 1</b>',
  head: ['Status: made', null],
  sections: [
    { kind: 'table', header: [{ text: 'No.' }, { text: 'Material' }, { text: 'Qty', right: true }], rows: Array.from({ length: rows }, (_, k) => [{ text: String(k + 1) }, { text: `${name} ${k}` }, { text: '1 t', right: true }]) },
    ...(items > 0 ? [{ kind: 'list' as const, label: 'Documents', items: Array.from({ length: items }, (_, k) => `No. ${k}`) }] : []),
  ],
});
const FOOTER = '<i>updated 14:05</i>';

/** Every part as Telegram reads it: each must be a message it takes. */
const allParts = (record: RichContent) => {
  const first = renderRichRecord(record, 0, en);
  return Array.from({ length: first.parts }, (_, part) => readRichMessage({ html: withFooter(renderRichRecord(record, part, en), FOOTER).html }));
};

describe('a record as a rich message', () => {
  it('fits in one message as long as Telegram’s limits allow: 490 rows do', () => {
    const record = withFooter(renderRichRecord(content(490), 0, en), FOOTER);
    expect(record.parts).toBe(1);
    expect(readRichMessage({ html: record.html }).metrics.blocks).toBe(495);
    expect(readRichMessage({ html: record.html }).text.split('\n').at(-1)).toBe('updated 14:05');
  });

  it('past 500 blocks, is cut into parts as the HTML view is: every row once, the header and key fields on each', () => {
    const parts = allParts(content(1200));
    expect(parts).toHaveLength(3);
    for (const [index, part] of parts.entries()) {
      expect(part.text.split('\n').slice(0, 2)).toEqual([`Order No. 1 · part ${index + 1} of 3`, 'Status: made']);
      expect(part.text.split('\n')[2]).toBe('No. | Material | Qty');
      expect(part.metrics.blocks).toBeLessThanOrEqual(500);
    }
    const rows = parts.flatMap((part) => part.text.split('\n').filter((line) => /^\d+ \| /.test(line)));
    expect(rows).toHaveLength(1200);
    expect(rows.at(-1)).toBe('1200 | Pipe 1199 | 1 t');
  });

  it('past 32,768 characters too, by what a reader sees; a list continues on the next part with its range', () => {
    const parts = allParts(content(100, 'П'.repeat(380), 300));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.metrics.characters).toBeLessThanOrEqual(32_768);
    const summaries = parts.flatMap((part) => part.text.split('\n').filter((line) => line.startsWith('Documents')));
    expect(summaries[0]).toMatch(/^Documents \(1–\d+ of 300\)$/);
  });

  it('is cut where it was whatever its footer: the parts never depend on the time', () => {
    const long = content(100, 'П'.repeat(380), 300);
    const plain = renderRichRecord(long, 1, en);
    expect(withFooter(plain, FOOTER.repeat(3)).html).toBe(`${plain.html}<footer>${FOOTER.repeat(3)}</footer>`);
    expect(withFooter(plain, null)).toBe(plain);
    expect(readRichMessage({ html: withFooter(plain, '<i>' + 'x'.repeat(70) + '</i>').html }).metrics.characters).toBeLessThanOrEqual(32_768);
  });

  it('a part asked for past the last is the last; thousands of entries: the rest counted on the last part', () => {
    expect(renderRichRecord(content(10), 5, en).part).toBe(0);
    const huge = content(60_000);
    const last = renderRichRecord(huge, 500, en);
    expect(last.parts).toBe(MAX_RICH_PARTS);
    expect(last.part).toBe(MAX_RICH_PARTS - 1);
    expect(readRichMessage({ html: withFooter(last, FOOTER).html }).text).toMatch(/\n\d+ more lines not shown\.\nupdated 14:05$/);
  });
});
