import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { DEFAULT_CARD_OPTIONS } from '../../../../src/bot/views/common/card-parts.ts';
import { renderSpecCard } from '../../../../src/bot/views/specification/card.ts';
import { specDocuments } from '../../../../src/portal/documents.ts';
import { consigneeNames, relatedOrderNumbers } from '../../../../src/bot/views/specification/lists.ts';
import { makeSpecification } from '../../../fixtures/portal-records.ts';

// The one-line lists of a specification card: consignees, documents, production requests.

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };
const renderRu = (spec = makeSpecification(), options = DEFAULT_CARD_OPTIONS) => renderSpecCard(spec, ru.t, ru.fmt, options);
const renderEn = (spec = makeSpecification(), options = DEFAULT_CARD_OPTIONS) => renderSpecCard(spec, en.t, en.fmt, options);
const lineOf = (html: string, start: string) => html.split('\n').find((line) => line.startsWith(start));

describe('consignees', () => {
  const delivery = (...names: Array<string | null>) => names.map((name) => ({ CONSIGNEE_SHORT_NAME: name }));

  test('duplicates removed, first spelling kept, empty names skipped', () => {
    const spec = makeSpecification({ DELIVERY: delivery('ООО Ромашка', ' ООО  Ромашка', 'ооо ромашка', null, '', 'АО Лютик', 'АО Лютик') });
    expect(consigneeNames(spec)).toEqual(['ООО Ромашка', 'АО Лютик']);
    expect(lineOf(renderRu(spec), 'Грузополучатели')).toBe('Грузополучатели: ООО Ромашка; АО Лютик');
    expect(lineOf(renderEn(spec), 'Consignees')).toBe('Consignees: ООО Ромашка; АО Лютик');
  });

  test('a long list ends in "and N more"', () => {
    const spec = makeSpecification({ DELIVERY: delivery('A', 'B', 'C', 'D', 'E', 'F', 'G') });
    expect(lineOf(renderRu(spec), 'Грузополучатели')).toBe('Грузополучатели: A; B; C; D; E и ещё 2');
    expect(lineOf(renderEn(spec, { ...DEFAULT_CARD_OPTIONS, maxListItems: 1 }), 'Consignees')).toBe('Consignees: A and 6 more');
  });
});

describe('documents', () => {
  const document = (ID: number, NUMBER: string | null, DATE: string | null) => ({ ID, NUMBER, DATE });

  test('DOCUMENT and DOCUMENT_LIST merged; the same ID, or the same number and date, is one document', () => {
    const spec = makeSpecification({
      DOCUMENT: [document(1, '123', '2026-02-01 00:00:00'), document(2, '124', '2026-02-05 00:00:00')],
      DOCUMENT_LIST: [
        document(1, '123', '2026-02-01 00:00:00'),
        document(3, '124', '2026-02-05'),
        document(4, '124', '2026-02-06 00:00:00'),
        document(2, 'other', null),
        document(5, '', '2026-02-07 00:00:00'),
      ],
    });
    expect(specDocuments(spec).map((item) => item.ID)).toEqual([1, 2, 4, 5]);
    expect(lineOf(renderRu(spec), 'Документы')).toBe(
      'Документы: № 123 от 01.02.2026; № 124 от 05.02.2026; № 124 от 06.02.2026; от 07.02.2026',
    );
    expect(lineOf(renderEn(spec), 'Documents')).toBe(
      'Documents: No. 123 dated 1 Feb 2026; No. 124 dated 5 Feb 2026; No. 124 dated 6 Feb 2026; dated 7 Feb 2026',
    );
  });

  test('DOCUMENT null with DOCUMENT_LIST only; a document with neither number nor date is not listed', () => {
    const spec = makeSpecification({ DOCUMENT: null, DOCUMENT_LIST: [document(9, 'Д-9', null), document(10, '', null)] });
    expect(lineOf(renderRu(spec), 'Документ')).toBe('Документ: № Д-9');
  });
});

describe('production requests', () => {
  test('their SAP numbers, each once; the request number when SAP is empty', () => {
    const spec = makeSpecification({
      ORDER: [
        { ID: 1, NUMBER: '', DATE_ORDER: null, SAP_ID: '0007300100' },
        { ID: 2, NUMBER: '', DATE_ORDER: null, SAP_ID: '0007300100' },
        { ID: 3, NUMBER: 'З-15', DATE_ORDER: null, SAP_ID: '' },
        { ID: 4, NUMBER: '', DATE_ORDER: null, SAP_ID: '' },
      ],
    });
    expect(relatedOrderNumbers(spec)).toEqual(['0007300100', 'З-15']);
    expect(lineOf(renderRu(spec), 'Заявки')).toBe('Заявки на производство: 0007300100, З-15');
    expect(lineOf(renderEn(spec), 'Production')).toBe('Production requests: 0007300100, З-15');
  });
});
