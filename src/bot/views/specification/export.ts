import type { Translate } from '../../../i18n.ts';
import { specDocuments } from '../../../portal/documents.ts';
import type { Specification } from '../../../portal/schemas.ts';
import { excelDate, lazyRows, notPlannedCell, openEndedCell, textCell } from '../../../export/sheet.ts';
import type { CellValue, Column, ColumnKind, Sheet } from '../../../export/sheet.ts';

// Specifications as five sheets: the specifications, then their positions, documents (DOCUMENT
// and DOCUMENT_LIST as one list), deliveries and production requests, each row led by its
// specification's SAP number and number so that a filtered sheet still says whose row it is.

const column = (t: Translate, key: string, kind: ColumnKind): Column => ({ header: t(`sheet.column.${key}`), kind });

/** The columns that lead every row of a list sheet. */
const ownerColumns = (t: Translate): Column[] => [column(t, 'specSapId', 'text'), column(t, 'specNumber', 'text')];
const ownerCells = (spec: Specification): CellValue[] => [textCell(spec.SAP_ID), textCell(spec.SPECIFICATION_NUMBER)];

/** One sheet of a list each specification carries, a row per element. */
const listSheet = <T>(
  specs: readonly Specification[],
  t: Translate,
  name: string,
  columns: Column[],
  items: (spec: Specification) => readonly T[],
  cells: (item: T) => CellValue[],
): Sheet => ({
  name: t(name),
  columns: [...ownerColumns(t), ...columns],
  rows: lazyRows(function* () {
    for (const spec of specs) {
      for (const item of items(spec)) yield [...ownerCells(spec), ...cells(item)];
    }
  }),
});

const specificationsSheet = (specs: readonly Specification[], t: Translate): Sheet => ({
  name: t('sheet.specifications'),
  columns: [
    column(t, 'sapId', 'text'),
    column(t, 'specNumber', 'text'),
    column(t, 'contractNumber', 'text'),
    column(t, 'contractDate', 'date'),
    column(t, 'status', 'text'),
    column(t, 'statusType', 'text'),
    column(t, 'validFrom', 'date'),
    column(t, 'validTo', 'date'),
    column(t, 'validityNote', 'text'),
    column(t, 'plannedWeight', 'tonnes'),
    column(t, 'prepayment', 'money'),
    column(t, 'positionCount', 'integer'),
  ],
  rows: lazyRows(function* () {
    for (const spec of specs) {
      yield [
        textCell(spec.SAP_ID),
        textCell(spec.SPECIFICATION_NUMBER),
        textCell(spec.CONTRACT_NUMBER),
        excelDate(spec.CONTRACT_DATE),
        textCell(spec.STATUS),
        textCell(spec.STATUS_TYPE),
        excelDate(spec.DATE_ACTIVE_FROM),
        excelDate(spec.DATE_ACTIVE_TO),
        openEndedCell(spec.DATE_ACTIVE_TO, t('sheet.openEnded')),
        spec.PLANNED_WEIGHT_TONN,
        spec.PREPAYMENT,
        spec.POSITION.length,
      ];
    }
  }),
});

/**
 * «Спецификации», «Позиции», «Документы», «Отгрузки», «Заявки» (in English: Specifications,
 * Positions, Documents, Deliveries, Production requests), headers in the user's language.
 */
export const specExportSheets = (specs: readonly Specification[], t: Translate): Sheet[] => [
  specificationsSheet(specs, t),
  listSheet(
    specs,
    t,
    'sheet.specPositions',
    [
      column(t, 'positionNumber', 'text'),
      column(t, 'materialCode', 'text'),
      column(t, 'material', 'text'),
      column(t, 'plannedProduction', 'date'),
      column(t, 'plannedNote', 'text'),
      column(t, 'pid', 'text'),
      column(t, 'positionId', 'text'),
    ],
    (spec) => spec.POSITION,
    (position) => [
      textCell(position.SPECIFICATION_POSITION_SAP_ID),
      textCell(position.MATERIAL_SAP_ID),
      textCell(position.MATERIAL_NAME),
      excelDate(position.DATE_PLANNED_PRODUCTION),
      notPlannedCell(position.DATE_PLANNED_PRODUCTION, t('spec.notPlanned')),
      textCell(position.PID_ID),
      String(position.ID),
    ],
  ),
  listSheet(
    specs,
    t,
    'sheet.documents',
    [column(t, 'documentNumber', 'text'), column(t, 'documentDate', 'date'), column(t, 'documentId', 'text')],
    specDocuments,
    (document) => [textCell(document.NUMBER), excelDate(document.DATE), String(document.ID)],
  ),
  listSheet(
    specs,
    t,
    'sheet.deliveries',
    [column(t, 'consignee', 'text')],
    (spec) => spec.DELIVERY,
    (delivery) => [textCell(delivery.CONSIGNEE_SHORT_NAME)],
  ),
  listSheet(
    specs,
    t,
    'sheet.requests',
    [
      column(t, 'requestSapId', 'text'),
      column(t, 'requestNumber', 'text'),
      column(t, 'requestDate', 'date'),
      column(t, 'requestId', 'text'),
    ],
    (spec) => spec.ORDER,
    (order) => [textCell(order.SAP_ID), textCell(order.NUMBER), excelDate(order.DATE_ORDER), String(order.ID)],
  ),
];
