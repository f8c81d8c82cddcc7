import { EMPTY_VALUE } from '../../../format.ts';
import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { RelatedOrder, Specification, SpecificationPosition } from '../../../portal/schemas.ts';
import { specDocuments } from '../../../portal/documents.ts';
import { clip, say, upTo } from '../common/card-parts.ts';
import { escapeHtml } from '../common/html.ts';
import { cachedRichView } from '../common/render-cache.ts';
import { RICH_CELL_TEXT, withoutLeadingZeros, type RichCell, type RichContent, type RichRecord, type RichSection } from '../common/rich-record.ts';
import { renderDocument, specFields, specHeadLines } from './card.ts';
import { relatedOrders } from './details.ts';
import { consigneeNames } from './lists.ts';

const HEAD = upTo(300);
const ITEM = upTo(RICH_CELL_TEXT);

const positionRow = (position: SpecificationPosition, t: Translate, fmt: Formatter): RichCell[] => [
  { text: withoutLeadingZeros(position.SPECIFICATION_POSITION_SAP_ID) },
  { text: withoutLeadingZeros(position.MATERIAL_SAP_ID) },
  { text: position.MATERIAL_NAME.trim() || EMPTY_VALUE },
  { text: position.DATE_PLANNED_PRODUCTION === null ? t('spec.notPlanned') : fmt.date(position.DATE_PLANNED_PRODUCTION) },
];

/** «0007300100 (№ CRM-2026-004512) от 15.03.2026», with what the request has of these. */
const requestHtml = (order: RelatedOrder, t: Translate, fmt: Formatter): string => {
  const sapId = escapeHtml(clip(order.SAP_ID, ITEM));
  const number = clip(order.NUMBER, ITEM) === '' ? '' : say(t, 'spec.documentNumber', { number: clip(order.NUMBER, ITEM) });
  const name = sapId !== '' && number !== '' ? `${sapId} (${number})` : sapId || number;
  const dated = order.DATE_ORDER === null ? '' : say(t, 'spec.documentDated', { date: fmt.date(order.DATE_ORDER) });
  return [name, dated].filter(Boolean).join(' ');
};

const lists = (spec: Specification, t: Translate, fmt: Formatter): RichSection[] => {
  const documents = specDocuments(spec).filter((document) => document.NUMBER.trim() !== '' || document.DATE !== null);
  const all: RichSection[] = [
    { kind: 'list', label: t('full.consignees'), items: consigneeNames(spec).map((name) => escapeHtml(clip(name, ITEM))) },
    { kind: 'list', label: t('full.documents'), items: documents.map((document) => renderDocument(document, t, fmt, ITEM)) },
    { kind: 'list', label: t('full.requests'), items: relatedOrders(spec).map((order) => requestHtml(order, t, fmt)) },
  ];
  return all.filter((section) => section.kind === 'list' && section.items.length > 0);
};

/**
 * A specification's content for the rich view: contract, number, validity, status, planned
 * weight and prepayment; its positions as a table with their planned production dates; its
 * consignees, documents and production requests as collapsible details blocks.
 */
export const specRichContent = (spec: Specification, t: Translate, fmt: Formatter): RichContent => {
  const fields = specFields(spec, t, fmt, HEAD);
  return {
    title: fields.title,
    head: specHeadLines(fields),
    sections: [
      ...(spec.POSITION.length === 0
        ? []
        : [
            {
              kind: 'table' as const,
              header: [{ text: t('rich.column.number') }, { text: t('rich.column.code') }, { text: t('rich.column.material') }, { text: t('rich.column.planned') }],
              rows: spec.POSITION.map((position) => positionRow(position, t, fmt)),
            },
          ]),
      ...lists(spec, t, fmt),
    ],
  };
};

export const renderSpecRich = (spec: Specification, part: number, t: Translate, fmt: Formatter, fetchedAt?: Date, now?: Date): RichRecord =>
  cachedRichView(spec, () => specRichContent(spec, t, fmt), part, t, fmt, fetchedAt, now);
