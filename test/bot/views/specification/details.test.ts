import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { renderSpecDetails } from '../../../../src/bot/views/specification/details.ts';
import { makeSpecification, specificationPosition } from '../../../fixtures/portal-records.ts';
import { parseHtml } from '../../../support/bot-api/html.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };
const fetchedAt = new Date('2026-11-23T11:05:00Z');

/** Two deliveries to one consignee, a document in both lists, two requests (one with a NUMBER). */
const spec = () =>
  makeSpecification({
    DELIVERY: [{ CONSIGNEE_SHORT_NAME: 'ООО Ромашка' }, { CONSIGNEE_SHORT_NAME: ' ооо  ромашка ' }, { CONSIGNEE_SHORT_NAME: 'АО «Волжский терминал»' }],
    DOCUMENT: [{ ID: 1, NUMBER: '123', DATE: '2026-02-01 00:00:00' }],
    DOCUMENT_LIST: [
      { ID: 1, NUMBER: '123', DATE: '2026-02-01 00:00:00' },
      { ID: 2, NUMBER: 'УПД-00316', DATE: null },
      { ID: 3, NUMBER: '', DATE: null },
    ],
    ORDER: [
      { ID: 7, NUMBER: '', DATE_ORDER: '2026-03-15 00:00:00', SAP_ID: '0007300100' },
      { ID: 8, NUMBER: 'CRM-2026-004512', DATE_ORDER: null, SAP_ID: '0007300101' },
      { ID: 9, NUMBER: 'CRM-2026-004512', DATE_ORDER: null, SAP_ID: '0007300101' },
    ],
  });

describe('specification in full', () => {
  test('Russian: every field; positions, consignees, documents and requests, each once', () => {
    const view = renderSpecDetails(spec(), 0, ru.t, ru.fmt, fetchedAt);
    expect(view.text).toBe(
      [
        '<b>Спецификация № 12</b>',
        'Договор № ДП-77/2026 от 01.02.2026',
        'Номер SAP: 0040001234',
        'Статус: 20, тип ZSD_DOG',
        'Действует с 01.03.2026 по 31.12.2026',
        'Плановый вес: 120,5\u00a0т',
        'Предоплата: 1\u00a0000\u00a0000,00',
        '<i>обновлено <tg-time unix="1795431900" format="t">14:05</tg-time></i>',
        '',
        '<b>Позиции и плановые даты производства</b> (2):',
        '• <b>000010</b> · Труба 530х8 К52 ГОСТ 20295-85',
        'код материала 000000000010012345 · плановая дата производства 15.04.2026',
        '• <b>000020</b> · Труба э/с 133х4,5',
        'код материала 000000000010012346 · не запланировано',
        '',
        '<b>Грузополучатели</b> (2):',
        '• ООО Ромашка',
        '• АО «Волжский терминал»',
        '',
        '<b>Документы</b> (2):',
        '• № 123 от 01.02.2026',
        '• № УПД-00316',
        '',
        '<b>Заявки на производство</b> (2):',
        '• 0007300100 от 15.03.2026',
        '• 0007300101 (№ CRM-2026-004512)',
      ].join('\n'),
    );
    expect(view).toMatchObject({
      part: 0,
      parts: 1,
      positions: [
        { materialSapId: '000000000010012345', materialName: 'Труба 530х8 К52 ГОСТ 20295-85' },
        { materialSapId: '000000000010012346', materialName: 'Труба э/с 133х4,5' },
      ],
      relatedOrders: ['0007300100', '0007300101'],
    });
  });

  test('English', () => {
    expect(renderSpecDetails(spec(), 0, en.t, en.fmt, fetchedAt, new Date('2026-11-25T12:00:00Z')).text).toBe(
      [
        '<b>Specification No. 12</b>',
        'Contract No. ДП-77/2026 dated 1 Feb 2026',
        'SAP no.: 0040001234',
        'Status: 20, type ZSD_DOG',
        'Valid from 1 Mar 2026 to 31 Dec 2026',
        'Planned weight: 120.5\u00a0t',
        'Prepayment: 1,000,000.00',
        '<i>updated <tg-time unix="1795431900" format="dt">23 Nov 2026, 14:05</tg-time></i>',
        '',
        '<b>Positions and planned production dates</b> (2):',
        '• <b>000010</b> · Труба 530х8 К52 ГОСТ 20295-85',
        'material code 000000000010012345 · planned production date 15 Apr 2026',
        '• <b>000020</b> · Труба э/с 133х4,5',
        'material code 000000000010012346 · not planned',
        '',
        '<b>Consignees</b> (2):',
        '• ООО Ромашка',
        '• АО «Волжский терминал»',
        '',
        '<b>Documents</b> (2):',
        '• No. 123 dated 1 Feb 2026',
        '• No. УПД-00316',
        '',
        '<b>Production requests</b> (2):',
        '• 0007300100 dated 15 Mar 2026',
        '• 0007300101 (No. CRM-2026-004512)',
      ].join('\n'),
    );
  });

  test('empty lists are left out; an open-ended validity; a request known only by its NUMBER has no button', () => {
    const bare = makeSpecification({
      SAP_ID: '',
      PLANNED_WEIGHT_TONN: null,
      PREPAYMENT: null,
      DATE_ACTIVE_TO: '9999-12-31 00:00:00',
      DELIVERY: null,
      DOCUMENT: null,
      ORDER: [{ ID: 1, NUMBER: '45', DATE_ORDER: '2026-03-15 00:00:00', SAP_ID: '' }],
      POSITION: [specificationPosition(1, { SPECIFICATION_POSITION_SAP_ID: '', MATERIAL_SAP_ID: '', DATE_PLANNED_PRODUCTION: null })],
    });
    const view = renderSpecDetails(bare, 0, ru.t, ru.fmt);
    expect(view.text).toBe(
      [
        '<b>Спецификация № 12</b>',
        'Договор № ДП-77/2026 от 01.02.2026',
        'Статус: 20, тип ZSD_DOG',
        'Действует с 01.03.2026, бессрочно',
        '',
        '<b>Позиции и плановые даты производства</b> (1):',
        '• Труба 1',
        'не запланировано',
        '',
        '<b>Заявки на производство</b> (1):',
        '• № 45 от 15.03.2026',
      ].join('\n'),
    );
    expect(view.relatedOrders).toEqual([]);
    expect(view.positions).toEqual([{ materialSapId: '', materialName: 'Труба 1' }]);
  });

  test('portal text is escaped and reaches the user exactly', () => {
    const consignee = 'ООО «СпецСтрой & Ко» <филиал>';
    const view = renderSpecDetails(makeSpecification({ DELIVERY: [{ CONSIGNEE_SHORT_NAME: consignee }] }), 0, en.t, en.fmt);
    expect(view.text).toContain('\n• ООО «СпецСтрой &amp; Ко» &lt;филиал&gt;\n');
    expect(parseHtml(view.text).text).toContain(`\n• ${consignee}\n`);
  });
});
