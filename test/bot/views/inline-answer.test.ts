import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator } from '../../../src/i18n.ts';
import type { Results } from '../../../src/portal/client.ts';
import type { Order } from '../../../src/portal/schemas.ts';
import { renderInlineAnswer } from '../../../src/bot/views/inline-answer.ts';
import { makeOrder } from '../../fixtures/portal-records.ts';

// Telegram refuses an answer whose result ids repeat (RESULT_ID_DUPLICATE), and the portal may
// send the same record twice.

const t = createTranslator('en');
const fmt = createFormatter('en');

const answer = (items: Order[], total = items.length) => {
  const results: Results = {
    resource: 'order',
    query: { resource: 'order', filter: 'STATUS', value: 'production' },
    paging: { limit: 20, offset: 0 },
    page: { items, total, limit: 20, offset: 0 },
  };
  return renderInlineAnswer(results, t, fmt);
};

const ids = (view: ReturnType<typeof answer>) => view.results.map((result) => result.id);

describe('inline answer with repeated records', () => {
  test('the same record twice is offered once; paging still counts what the portal sent', () => {
    const first = makeOrder({ SAP_ID: '0007300100' });
    const second = makeOrder({ SAP_ID: '0007300101' });
    const view = answer([first, second, first, second, first], 30);
    expect(ids(view)).toEqual(['o:0007300100', 'o:0007300101']);
    expect(view.results.map((result) => result.title)).toEqual([
      expect.stringContaining('0007300100'),
      expect.stringContaining('0007300101'),
    ]);
    expect(view.nextOffset).toBe('5');
  });

  test('two different records with one number are both offered, under different ids', () => {
    const long = 'A'.repeat(60);
    const view = answer([
      makeOrder({ SAP_ID: '0007300100', STATUS_TEXT: 'Production' }),
      makeOrder({ SAP_ID: '0007300100', STATUS_TEXT: 'Shipped' }),
      makeOrder({ SAP_ID: long, STATUS_TEXT: 'Production' }),
      makeOrder({ SAP_ID: long, STATUS_TEXT: 'Shipped' }),
      makeOrder({ SAP_ID: long, STATUS_TEXT: 'Cancelled' }),
    ]);
    const all = ids(view);
    expect(all).toHaveLength(5);
    expect(new Set(all).size).toBe(5);
    expect(all[0]).toBe('o:0007300100');
    for (const id of all) expect(Buffer.byteLength(id)).toBeLessThanOrEqual(64);
    expect(view.results.map((result) => result.title)).toEqual([
      expect.stringContaining('Production'),
      expect.stringContaining('Shipped'),
      expect.stringContaining('Production'),
      expect.stringContaining('Shipped'),
      expect.stringContaining('Cancelled'),
    ]);
  });
});

describe('inline answer where the server has rich messages', () => {
  test('a record is sent as its rich view (its table), the title and the short card over it as before', () => {
    const results: Results = {
      resource: 'order',
      query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' },
      paging: { limit: 20, offset: 0 },
      page: { items: [makeOrder()], total: 1, limit: 20, offset: 0 },
    };
    const plain = renderInlineAnswer(results, t, fmt).results[0];
    const rich = renderInlineAnswer(results, t, fmt, { rich: true }).results[0];
    expect(rich).toEqual({
      ...plain,
      input_message_content: { rich_message: { html: expect.stringMatching(/^<h3><b>Order No\. 0007300100<\/b> dated 15 Mar 2026<\/h3>.*<table bordered striped>.*<\/table>$/) } },
    });
    expect(plain?.input_message_content).toMatchObject({ message_text: expect.stringContaining('Order No. 0007300100'), parse_mode: 'HTML' });
  });
});
