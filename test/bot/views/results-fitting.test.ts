import { beforeEach, describe, expect, test, vi } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator } from '../../../src/i18n.ts';
import type { OrderQuery } from '../../../src/query.ts';
import { TELEGRAM_TEXT_LIMIT, visibleLength } from '../../../src/bot/views/common/html.ts';
import type * as Html from '../../../src/bot/views/common/html.ts';
import { DEGRADE_STEPS } from '../../../src/bot/views/common/card-parts.ts';
import { renderResultsText } from '../../../src/bot/views/results.ts';
import { hugeOrder } from '../../fixtures/worst-case.ts';

// Fitting a page into one message measures each card once per step, whatever the page holds:
// a page far longer than asked must not cost time quadratic in its length.

const measured = vi.hoisted(() => ({ characters: 0 }));
/** Far above what a linear fit measures for any page, far below a quadratic one for 20,000 records. */
const MEASURE_BUDGET = 50 * TELEGRAM_TEXT_LIMIT * DEGRADE_STEPS.length;

vi.mock('../../../src/bot/views/common/html.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Html>();
  return {
    ...original,
    visibleLength: (html: string) => {
      measured.characters += html.length;
      if (measured.characters > MEASURE_BUDGET) throw new Error(`measured over ${MEASURE_BUDGET} characters: fitting is not linear`);
      return original.visibleLength(html);
    },
  };
});

const t = createTranslator('en');
const fmt = createFormatter('en');
const query: OrderQuery = { resource: 'order', filter: 'STATUS', value: 'production' };

describe('fitting a page far longer than asked', () => {
  beforeEach(() => {
    measured.characters = 0;
  });

  test('20,000 records: one message within the limit, cards from the start, and how many did not fit', () => {
    const one = hugeOrder(1);
    const items = Array.from({ length: 20_000 }, (_, index) => ({ ...one, SAP_ID: `${index + 1} ${one.SAP_ID}` }));
    const text = renderResultsText({ resource: 'order', query, items, total: 20_000, offset: 0, limit: 5 }, t, fmt);
    measured.characters = 0;
    expect(visibleLength(text)).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text).toMatch(/^<b>Orders 1–20,000 of 20,000<\/b>/);
    const shown = text.split('\n').filter((line) => /^<b>\d+\.<\/b> /.test(line)).length;
    expect(shown).toBeGreaterThan(0);
    expect(text).toMatch(new RegExp(`\n${20_000 - shown} more orders did not fit[^\\n]*$`));
  });
});
