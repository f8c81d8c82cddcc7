import { describe, expect, it } from 'vitest';
import { richToTerminal } from '../../src/console/rich-text.ts';
import { numberButtons, renderConsoleMessage } from '../../src/console/terminal.ts';
import { renderOrderRich } from '../../src/bot/views/order/rich.ts';
import { renderSpecRich } from '../../src/bot/views/specification/rich.ts';
import { createFormatter } from '../../src/format.ts';
import { createTranslator } from '../../src/i18n.ts';
import { makeOrder, makeSpecification } from '../fixtures/portal-records.ts';

const en = { t: createTranslator('en'), fmt: createFormatter('en') };

describe('a rich message in the console chat', () => {
  it('an order: its table as aligned columns, numbers to the right, the header underlined', () => {
    const { html } = renderOrderRich(makeOrder(), 0, en.t, en.fmt, new Date('2026-11-23T11:05:00Z'));
    expect(richToTerminal(html, false).replace(/\u00a0/g, ' ').split('\n')).toEqual([
      'Order No. 0007300100 dated 15 Mar 2026',
      'CRM no.: CRM-2026-004512',
      'Status: Производство (production)',
      'Total: 1,234,567.89 RUB',
      'Prepayment: 500,000.00 RUB',
      'Quantity: 12.345 t · 120.5 m · 10 pcs',
      'No.  Code      Material                            Qty     Price       Total  Cur.',
      '───  ────────  ─────────────────────────────  ────────  ────────  ──────────  ────',
      '10   10012345  Труба 530х8 К52 ГОСТ 20295-85  12.345 t  1,000.00   12,345.00  RUB',
      '20   10012346  Труба э/с 133х4,5               120.5 m  1,000.00  120,500.00  RUB',
      'updated 14:05',
    ]);
  });

  it('a specification: each details block as its summary over its entries, indented', () => {
    const { html } = renderSpecRich(makeSpecification(), 0, en.t, en.fmt);
    expect(richToTerminal(html, false).split('\n').slice(-6)).toEqual([
      '▸ Consignees (1)',
      '  • ООО Ромашка',
      '▸ Documents (1)',
      '  • No. 123 dated 1 Feb 2026',
      '▸ Production requests (1)',
      '  • 0007300100 dated 15 Mar 2026',
    ]);
  });

  it('bold as a terminal style when the output is one', () => {
    expect(richToTerminal('<h3><b>Order</b></h3><p>a &amp; b</p>', true)).toBe('\x1b[1m\x1b[1mOrder\x1b[0m\x1b[0m\na & b');
  });

  it('buttons: a disabled one in parentheses, a copy button with what it copies, neither numbered', () => {
    const message = {
      id: 1,
      html: '<p>record</p>',
      rich: true,
      edited: false,
      keyboard: [
        [{ text: '◀', disabled: {} }, { text: '1/2', callback_data: 'n' }, { text: '▶', callback_data: 'r:5:0:0:1:abcdef:o0=1' }],
        [{ text: '📋 0007300100', copy_text: { text: '0007300100' } }],
      ],
    };
    expect(numberButtons(message)).toEqual({ lines: ['(◀)   [1] 1/2   [2] ▶', '[📋 0007300100 ⧉ 0007300100]'], pressable: ['n', 'r:5:0:0:1:abcdef:o0=1'] });
    expect(renderConsoleMessage(message, false)).toBe('\n🤖 record\n   (◀)   [1] 1/2   [2] ▶\n   [📋 0007300100 ⧉ 0007300100]');
  });
});
