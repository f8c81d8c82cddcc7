import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator, type Locale } from '../../../../src/i18n.ts';
import type { RecordChange } from '../../../../src/watch/changes.ts';
import { diffSnapshots } from '../../../../src/watch/diff.ts';
import { snapshotOf } from '../../../../src/watch/snapshot.ts';
import { CHANGE_VIEWS } from '../../../../src/bot/views/change-views.ts';
import { renderSpecChange } from '../../../../src/bot/views/specification/change.ts';
import type { RawSpecification } from '../../../fixtures/portal-records.ts';
import { makeSpecification, rawSpecification, specificationPosition } from '../../../fixtures/portal-records.ts';

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const ru = kit('ru');
const en = kit('en');

const changeOf = (before: Partial<RawSpecification>, after: Partial<RawSpecification>): RecordChange => {
  const [change] = diffSnapshots(
    snapshotOf({ resource: 'specification', items: [makeSpecification(before)] }),
    snapshotOf({ resource: 'specification', items: [makeSpecification(after)] }),
  );
  if (change === undefined) throw new Error('no change');
  return change;
};

const base = rawSpecification();
const [first, second] = base.POSITION ?? [];
const everything = changeOf(
  {},
  {
    STATUS: '30',
    STATUS_TYPE: 'ZSDZNM',
    DATE_ACTIVE_FROM: '2026-04-01 00:00:00',
    DATE_ACTIVE_TO: '9999-12-31 00:00:00',
    PLANNED_WEIGHT_TONN: 130.25,
    PREPAYMENT: 1500000,
    POSITION: [first!, { ...second!, DATE_PLANNED_PRODUCTION: '2026-06-15 00:00:00' }, specificationPosition(3, { MATERIAL_NAME: 'Труба 530х8', DATE_PLANNED_PRODUCTION: null })],
    DOCUMENT_LIST: [{ ID: 5, NUMBER: 'АКТ-555', DATE: '2026-11-20 00:00:00' }],
    DELIVERY: [{ CONSIGNEE_SHORT_NAME: 'ООО Ромашка' }, { CONSIGNEE_SHORT_NAME: 'ООО Лютик' }],
    ORDER: [{ ID: 8, NUMBER: '', DATE_ORDER: '2026-03-16 00:00:00', SAP_ID: '0007300101' }],
  },
);

describe('a specification\'s changes', () => {
  test('Russian: the header with the contract, then every change', () => {
    expect(renderSpecChange(everything, ru.t, ru.fmt)).toEqual([
      '🔔 <b>Спецификация № 12</b> · договор ДП-77/2026',
      'Статус: 20 → 30',
      'Тип статуса: ZSD_DOG → ZSDZNM',
      'Действует с: 01.03.2026 → 01.04.2026',
      'Действует по: 31.12.2026 → бессрочно',
      'Плановый вес: 120,5\u00a0т → 130,25\u00a0т',
      'Предоплата: 1\u00a0000\u00a0000,00 → 1\u00a0500\u00a0000,00',
      'Плановая дата производства, поз. 000020, Труба э/с 133х4,5: не запланировано → 15.06.2026',
      'Новая позиция 000030: Труба 530х8 — не запланировано',
      'Новый документ: АКТ-555 от 20.11.2026',
      'Новый грузополучатель: ООО Лютик',
      'Новая заявка на производство: 0007300101',
      'Заявка на производство удалена: 0007300100',
    ]);
  });

  test('English likewise', () => {
    expect(renderSpecChange(everything, en.t, en.fmt)).toEqual([
      '🔔 <b>Specification No. 12</b> · contract ДП-77/2026',
      'Status: 20 → 30',
      'Status type: ZSD_DOG → ZSDZNM',
      'Valid from: 1 Mar 2026 → 1 Apr 2026',
      'Valid to: 31 Dec 2026 → open-ended',
      'Planned weight: 120.5\u00a0t → 130.25\u00a0t',
      'Prepayment: 1,000,000.00 → 1,500,000.00',
      'Planned production date, pos. 000020, Труба э/с 133х4,5: not planned → 15 Jun 2026',
      'New position 000030: Труба 530х8 — not planned',
      'New document: АКТ-555 dated 20 Nov 2026',
      'New consignee: ООО Лютик',
      'New production request: 0007300101',
      'Production request removed: 0007300100',
    ]);
  });

  test('removals, a planned date withdrawn, a document\'s own changes', () => {
    const change = changeOf(
      { DOCUMENT: [{ ID: 1, NUMBER: '123', DATE: '2026-02-01 00:00:00' }, { ID: 2, NUMBER: '', DATE: '2026-02-03 00:00:00' }] },
      {
        POSITION: [{ ...first!, DATE_PLANNED_PRODUCTION: null }],
        DOCUMENT: [{ ID: 1, NUMBER: '124', DATE: '2026-02-02 00:00:00' }],
        DELIVERY: [],
        ORDER: [{ ID: 7, NUMBER: 'З-15', DATE_ORDER: '2026-03-20 00:00:00', SAP_ID: '0007300100' }],
      },
    );
    expect(renderSpecChange(change, ru.t, ru.fmt).slice(1)).toEqual([
      'Плановая дата производства, поз. 000010, Труба 530х8 К52 ГОСТ 20295-85: 15.04.2026 → не запланировано',
      'Удалена поз. 000020, Труба э/с 133х4,5',
      'Номер документа: 123 → 124',
      'Дата документа: 01.02.2026 → 02.02.2026',
      'Документ удалён: от 03.02.2026',
      'Грузополучатель удалён: ООО Ромашка',
      'Номер, заявка на производство 0007300100: — → З-15',
      'Дата заказа, заявка на производство 0007300100: 15.03.2026 → 20.03.2026',
    ]);
  });

  test('entering and leaving; a title without number or contract', () => {
    const entered = diffSnapshots(
      { resource: 'specification', records: {} },
      snapshotOf({ resource: 'specification', items: [makeSpecification({ SPECIFICATION_NUMBER: '', CONTRACT_NUMBER: '' })] }),
    );
    expect(renderSpecChange(entered[0]!, ru.t, ru.fmt)).toEqual(['🔔 <b>Спецификация</b>', 'Новая запись по запросу']);
    const left = diffSnapshots(snapshotOf({ resource: 'specification', items: [makeSpecification()] }), { resource: 'specification', records: {} });
    expect(renderSpecChange(left[0]!, en.t, en.fmt)).toEqual(['🔔 <b>Specification No. 12</b> · contract ДП-77/2026', 'No longer matches the query']);
  });

  test('portal text is escaped, in the title too', () => {
    const change = changeOf(
      { SPECIFICATION_NUMBER: '<12>', CONTRACT_NUMBER: 'ДП & "77"' },
      { SPECIFICATION_NUMBER: '<12>', CONTRACT_NUMBER: 'ДП & "77"', DELIVERY: [{ CONSIGNEE_SHORT_NAME: 'ООО <Ромашка>' }] },
    );
    expect(renderSpecChange(change, ru.t, ru.fmt)).toEqual([
      '🔔 <b>Спецификация № &lt;12&gt;</b> · договор ДП &amp; &quot;77&quot;',
      'Новый грузополучатель: ООО &lt;Ромашка&gt;',
      'Грузополучатель удалён: ООО Ромашка',
    ]);
  });

  test('is the specification entry of CHANGE_VIEWS', () => {
    expect(CHANGE_VIEWS.specification(everything, en.t, en.fmt)).toEqual(renderSpecChange(everything, en.t, en.fmt));
  });
});
