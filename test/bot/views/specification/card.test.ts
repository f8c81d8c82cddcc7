import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { DEFAULT_CARD_OPTIONS } from '../../../../src/bot/views/common/card-parts.ts';
import { renderSpecCard } from '../../../../src/bot/views/specification/card.ts';
import { parseStatusNames, withStatusNames } from '../../../../src/status-names.ts';
import { makeSpecification, specificationPosition } from '../../../fixtures/portal-records.ts';
import { parseHtml } from '../../../support/bot-api/html.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };
const renderRu = (spec = makeSpecification(), options = DEFAULT_CARD_OPTIONS) => renderSpecCard(spec, ru.t, ru.fmt, options);
const renderEn = (spec = makeSpecification(), options = DEFAULT_CARD_OPTIONS) => renderSpecCard(spec, en.t, en.fmt, options);
const lineOf = (html: string, start: string) => html.split('\n').find((line) => line.startsWith(start));

describe('specification card', () => {
  test('Russian', () => {
    expect(renderRu()).toBe(
      [
        '<b>Спецификация № 12</b>',
        'Договор № ДП-77/2026 от 01.02.2026',
        'Номер SAP: 0040001234',
        'Статус: 20, тип ZSD_DOG',
        'Действует с 01.03.2026 по 31.12.2026',
        'Плановый вес: 120,5\u00a0т',
        'Предоплата: 1\u00a0000\u00a0000,00',
        'Грузополучатель: ООО Ромашка',
        'Документ: № 123 от 01.02.2026',
        'Заявка на производство: 0007300100',
        'Позиции и плановые даты производства (2):',
        '• Труба 530х8 К52 ГОСТ 20295-85 — 15.04.2026',
        '• Труба э/с 133х4,5 — не запланировано',
      ].join('\n'),
    );
  });

  test('English', () => {
    expect(renderEn()).toBe(
      [
        '<b>Specification No. 12</b>',
        'Contract No. ДП-77/2026 dated 1 Feb 2026',
        'SAP no.: 0040001234',
        'Status: 20, type ZSD_DOG',
        'Valid from 1 Mar 2026 to 31 Dec 2026',
        'Planned weight: 120.5\u00a0t',
        'Prepayment: 1,000,000.00',
        'Consignee: ООО Ромашка',
        'Document: No. 123 dated 1 Feb 2026',
        'Production request: 0007300100',
        'Positions and planned production dates (2):',
        '• Труба 530х8 К52 ГОСТ 20295-85 — 15 Apr 2026',
        '• Труба э/с 133х4,5 — not planned',
      ].join('\n'),
    );
  });

  test('nulls and empty lists leave their lines out', () => {
    const spec = makeSpecification({
      SAP_ID: '',
      CONTRACT_NUMBER: null,
      CONTRACT_DATE: null,
      STATUS: null,
      STATUS_TYPE: null,
      DATE_ACTIVE_FROM: null,
      DATE_ACTIVE_TO: null,
      PLANNED_WEIGHT_TONN: null,
      PREPAYMENT: null,
      DELIVERY: null,
      DOCUMENT: null,
      ORDER: null,
      POSITION: null,
    });
    expect(renderRu(spec)).toBe('<b>Спецификация № 12</b>');
    expect(renderEn({ ...spec, SPECIFICATION_NUMBER: ' ' })).toBe('<b>Specification</b>');
  });

  test('portal text is escaped and reaches the user exactly', () => {
    const spec = makeSpecification({
      SPECIFICATION_NUMBER: '<12>',
      CONTRACT_NUMBER: 'ДП-77 & "Ко"',
      DELIVERY: [{ CONSIGNEE_SHORT_NAME: 'АО "Лютик" & <Ко>' }],
      POSITION: [specificationPosition(1, { MATERIAL_NAME: 'Труба 1020х12 "К60" <ТУ 1381-012>' })],
    });
    const html = renderRu(spec);
    expect(html).toContain('<b>Спецификация № &lt;12&gt;</b>');
    const shown = parseHtml(html).text;
    expect(shown).toContain('Договор № ДП-77 & "Ко" от 01.02.2026');
    expect(shown).toContain('Грузополучатель: АО "Лютик" & <Ко>');
    expect(shown).toContain('• Труба 1020х12 "К60" <ТУ 1381-012> — 15.04.2026');
  });
});

describe('contract and status', () => {
  test('contract number or date alone', () => {
    expect(lineOf(renderRu(makeSpecification({ CONTRACT_DATE: null })), 'Договор')).toBe('Договор № ДП-77/2026');
    expect(lineOf(renderEn(makeSpecification({ CONTRACT_NUMBER: '' })), 'Contract')).toBe('Contract date: 1 Feb 2026');
  });

  test('the status code and type as sent, with no invented names', () => {
    expect(lineOf(renderRu(makeSpecification({ STATUS: 70, STATUS_TYPE: 'ZSDZMP' })), 'Статус')).toBe('Статус: 70, тип ZSDZMP');
    expect(lineOf(renderEn(makeSpecification({ STATUS_TYPE: '' })), 'Status')).toBe('Status: 20');
    expect(lineOf(renderRu(makeSpecification({ STATUS: '' })), 'Тип')).toBe('Тип статуса: ZSD_DOG');
  });
});

describe('validity period', () => {
  const validity = (overrides: Parameters<typeof makeSpecification>[0]) => [
    lineOf(renderRu(makeSpecification(overrides)), 'Действует'),
    lineOf(renderEn(makeSpecification(overrides)), 'Valid'),
  ];

  test('a far-future end reads open-ended', () => {
    expect(validity({ DATE_ACTIVE_TO: '9999-12-31 00:00:00' })).toEqual([
      'Действует с 01.03.2026, бессрочно',
      'Valid from 1 Mar 2026, open-ended',
    ]);
    expect(validity({ DATE_ACTIVE_FROM: null, DATE_ACTIVE_TO: '9999-12-31 00:00:00' })).toEqual([
      'Действует бессрочно',
      'Valid: open-ended',
    ]);
  });

  test('one end only', () => {
    expect(validity({ DATE_ACTIVE_TO: null })).toEqual(['Действует с 01.03.2026', 'Valid from 1 Mar 2026']);
    expect(validity({ DATE_ACTIVE_FROM: null })).toEqual(['Действует по 31.12.2026', 'Valid to 31 Dec 2026']);
    expect(validity({ DATE_ACTIVE_FROM: null, DATE_ACTIVE_TO: null })).toEqual([undefined, undefined]);
  });
});

describe('positions', () => {
  const positions = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      specificationPosition(index + 1, { DATE_PLANNED_PRODUCTION: index % 2 === 0 ? '2026-04-15 00:00:00' : null }),
    );

  test('planned production dates; null reads not planned; "… and N more"', () => {
    expect(renderRu(makeSpecification({ POSITION: positions(7) })).split('\n').slice(-5)).toEqual([
      'Позиции и плановые даты производства (7):',
      '• Труба 1 — 15.04.2026',
      '• Труба 2 — не запланировано',
      '• Труба 3 — 15.04.2026',
      '… и ещё 4 позиции',
    ]);
    expect(renderEn(makeSpecification({ POSITION: positions(7) })).split('\n').slice(-3)).toEqual([
      '• Труба 2 — not planned',
      '• Труба 3 — 15 Apr 2026',
      '… and 4 more positions',
    ]);
  });

  test('a time of day in the planned date is shown', () => {
    const spec = makeSpecification({ POSITION: [specificationPosition(1, { DATE_PLANNED_PRODUCTION: '2026-04-15 14:30:00' })] });
    expect(renderEn(spec)).toMatch(/\n• Труба 1 — 15 Apr 2026, 14:30$/);
  });

  test('maxPositions 0 leaves only the count', () => {
    expect(renderRu(makeSpecification({ POSITION: positions(11) }), { ...DEFAULT_CARD_OPTIONS, maxPositions: 0 })).toMatch(
      /\nЗаявка на производство: 0007300100\n11 позиций$/,
    );
  });
});

test('a brief card keeps the number, contract, status, validity and the count of positions', () => {
  const options = { ...DEFAULT_CARD_OPTIONS, maxPositions: 0, brief: true };
  expect(renderEn(makeSpecification(), options)).toBe(
    [
      '<b>Specification No. 12</b>',
      'Contract No. ДП-77/2026 dated 1 Feb 2026',
      'Status: 20, type ZSD_DOG',
      'Valid from 1 Mar 2026 to 31 Dec 2026',
      '2 positions',
    ].join('\n'),
  );
});

describe('status names from STATUS_NAMES_FILE (issue 30)', () => {
  test('beside the code and the type, in the language of the card, and only where the operator named them', async () => {
    const names = await parseStatusNames('names.json', JSON.stringify({ types: { ZSD_DOG: { ru: 'Договор', en: 'Contract', statuses: { '20': { ru: 'Согласован <да>', en: 'Approved' } } } } }));
    const named = (locale: 'ru' | 'en') => withStatusNames(createFormatter(locale), names);
    expect(lineOf(renderSpecCard(makeSpecification(), ru.t, named('ru')), 'Статус')).toBe('Статус: 20 (Согласован &lt;да&gt;), тип ZSD_DOG (Договор)');
    expect(lineOf(renderSpecCard(makeSpecification(), en.t, named('en')), 'Status')).toBe('Status: 20 (Approved), type ZSD_DOG (Contract)');
    expect(lineOf(renderSpecCard(makeSpecification({ STATUS: 70, STATUS_TYPE: 'ZSDZMP' }), en.t, named('en')), 'Status')).toBe('Status: 70, type ZSDZMP');
  });
});
