import { describe, expect, it } from 'vitest';
import { MAX_PASTED_LENGTH, recognise, type Identifier } from '../src/recognise.ts';

/** What a text names, each as "kind value". */
const names = (text: string, reading: 'loose' | 'strict' = 'loose'): string[] =>
  recognise(text, reading).identifiers.map((identifier: Identifier) => {
    switch (identifier.kind) {
      case 'order':
      case 'contract':
        return `${identifier.query.filter} ${identifier.query.value}`;
      case 'material':
        return `material ${identifier.code}`;
      case 'date':
        return `date ${identifier.date}`;
      case 'badDate':
        return `badDate ${identifier.text}`;
    }
  });

describe('recognise', () => {
  it.each([
    ['0007300100', ['SAP_ID 0007300100']],
    ['где заказ 7300100 и 7300321?', ['SAP_ID 0007300100', 'SAP_ID 0007300321']],
    ['№7300100.', ['SAP_ID 0007300100']],
    ['order 123456, please', ['SAP_ID 0000123456']],
    ['CRM-2026-004512', ['CRM_ID CRM-2026-004512']],
    ['по crm-2026-004512 что?', ['CRM_ID CRM-2026-004512']],
    ['ДП-77/2026', ['CONTRACT_NUMBER ДП-77/2026']],
    ['договор дп-112/2025 и Д-0412/25-ТР', ['CONTRACT_NUMBER ДП-112/2025', 'CONTRACT_NUMBER Д-0412/25-ТР']],
    ['код 000000000010012345', ['material 000000000010012345']],
    ['15.03.2026', ['date 2026-03-15']],
    ['заказы от 15.03.26?', ['date 2026-03-15']],
    ['2026-03-15', ['date 2026-03-15']],
    ['31.02.2026', ['badDate 31.02.2026']],
    ['0007300100 и снова 7300100', ['SAP_ID 0007300100']],
  ])('reads %j loosely as %j', (text, expected) => {
    expect(names(text)).toEqual(expected);
  });

  it.each([
    ['hello, how are you?'],
    ['Привет! Созвонимся в 15:30'],
    ['12345'],
    ['1234567890123'],
    ['+7 (912) 345-67-89'],
    ['8 800 555 35 35'],
    ['сумма 1 234 567,89 руб'],
    ['1234567,89'],
    ['ИНН 7701234567, КПП 770101001'],
    ['БИК 044525225'],
    ['тел. 9123456789'],
    ['версия 1.0.12'],
    ['192.168.1.10'],
    ['7300100-1'],
    ['ДП77/2026'],
    ['CRM2026'],
    ['abc0007300100'],
  ])('finds nothing in %j', (text) => {
    expect(names(text)).toEqual([]);
  });

  it('reads strictly only the shapes chatter rarely holds by chance: no short number, no date', () => {
    const text = 'заказ 7300100 от 15.03.2026, а также 0007300321, CRM-2026-004290, ДП-77/2026 и 000000000010012345';
    expect(names(text, 'strict')).toEqual(['SAP_ID 0007300321', 'CRM_ID CRM-2026-004290', 'CONTRACT_NUMBER ДП-77/2026', 'material 000000000010012345']);
    expect(names(text)).toEqual([
      'SAP_ID 0007300100',
      'date 2026-03-15',
      'SAP_ID 0007300321',
      'CRM_ID CRM-2026-004290',
      'CONTRACT_NUMBER ДП-77/2026',
      'material 000000000010012345',
    ]);
  });

  it('looks up at most ten, and counts the rest', () => {
    const text = Array.from({ length: 13 }, (_, index) => String(7_300_100 + index * 17)).join(' ');
    const { identifiers, more } = recognise(text, 'loose');
    expect(identifiers).toHaveLength(10);
    expect(more).toBe(3);
  });

  it('reads a text up to 4,096 characters', () => {
    const filler = 'x'.repeat(MAX_PASTED_LENGTH - 11);
    expect(names(`${filler} 0007300100`)).toEqual(['SAP_ID 0007300100']);
    expect(names(`${'x'.repeat(MAX_PASTED_LENGTH)} 0007300100`)).toEqual([]);
  });

  it('skips the parts it is told to (a mention, a link)', () => {
    const text = '@bot_7300100 0007300321';
    expect(names(text)).toEqual(['SAP_ID 0007300321']);
    expect(recognise('see https://x.example/7300100 ok', 'loose', [{ offset: 4, length: 25 }]).identifiers).toEqual([]);
  });
});
