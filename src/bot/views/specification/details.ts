import { EMPTY_VALUE } from '../../../format.ts';
import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { RelatedOrder, Specification, SpecificationPosition } from '../../../portal/schemas.ts';
import { clip, distinct, joinLines, say, upTo } from '../common/card-parts.ts';
import type { CardOptions } from '../common/card-parts.ts';
import { detailsRenderer } from '../common/details-view.ts';
import type { DetailsItem, DetailsSection, DetailsSource } from '../common/details-view.ts';
import { escapeHtml } from '../common/html.ts';
import { renderDocument, specFields, specHeadLines } from './card.ts';
import { specDocuments } from '../../../portal/documents.ts';
import { consigneeNames } from './lists.ts';

type Kit = { t: Translate; fmt: Formatter; options: CardOptions };

/** «• <b>000010</b> · name», then the material code and the planned production date. */
const positionItem = (position: SpecificationPosition, { t, fmt, options }: Kit): DetailsItem => {
  const number = clip(position.SPECIFICATION_POSITION_SAP_ID, options);
  const name = clip(position.MATERIAL_NAME, options) || EMPTY_VALUE;
  const code = clip(position.MATERIAL_SAP_ID, options);
  const planned =
    position.DATE_PLANNED_PRODUCTION === null
      ? t('spec.notPlanned')
      : say(t, 'full.planned', { date: clip(fmt.date(position.DATE_PLANNED_PRODUCTION), options) });
  return {
    html: joinLines([
      number === '' ? say(t, 'full.item', { value: name }) : say(t, 'full.numbered', { number, name }),
      [code === '' ? null : say(t, 'full.materialCode', { code }), planned].filter((fact) => fact !== null).join(' · '),
    ]),
    position: { materialSapId: position.MATERIAL_SAP_ID.trim(), materialName: position.MATERIAL_NAME.trim() },
  };
};

/** The production requests, each once: the same SAP number (or, without one, the same NUMBER) is one request. */
export const relatedOrders = (spec: Specification): RelatedOrder[] => {
  const keyOf = (order: RelatedOrder) => order.SAP_ID.trim() || order.NUMBER.trim();
  const keys = new Set(distinct(spec.ORDER.map(keyOf)));
  return spec.ORDER.filter((order) => keys.delete(keyOf(order)));
};

/** «• 0007300100 (№ CRM-2026-004512) от 15.03.2026», with what the request has of these. */
const requestItem = (order: RelatedOrder, { t, fmt, options }: Kit): DetailsItem => {
  const sapId = escapeHtml(clip(order.SAP_ID, options));
  const number = clip(order.NUMBER, options) === '' ? '' : say(t, 'spec.documentNumber', { number: clip(order.NUMBER, options) });
  const name = sapId !== '' && number !== '' ? `${sapId} (${number})` : sapId || number;
  const dated = order.DATE_ORDER === null ? '' : say(t, 'spec.documentDated', { date: clip(fmt.date(order.DATE_ORDER), options) });
  return {
    html: t('full.item', { value: [name, dated].filter(Boolean).join(' ') }),
    ...(order.SAP_ID.trim() === '' ? {} : { relatedOrder: order.SAP_ID.trim() }),
  };
};

const sections = (spec: Specification, kit: Kit): DetailsSection[] => {
  const { t, fmt, options } = kit;
  const documents = specDocuments(spec).filter((document) => document.NUMBER.trim() !== '' || document.DATE !== null);
  const all: DetailsSection[] = [
    { label: t('full.specPositions'), items: spec.POSITION.map((position) => positionItem(position, kit)) },
    {
      label: t('full.consignees'),
      items: consigneeNames(spec).map((name) => ({ html: say(t, 'full.item', { value: clip(name, options) }) })),
    },
    {
      label: t('full.documents'),
      items: documents.map((document) => ({ html: t('full.item', { value: renderDocument(document, t, fmt, options) }) })),
    },
    { label: t('full.requests'), items: relatedOrders(spec).map((order) => requestItem(order, kit)) },
  ];
  return all.filter((section) => section.items.length > 0);
};

/** A specification's content in full, for the details view. */
export const specDetailsSource = (spec: Specification, t: Translate, fmt: Formatter): DetailsSource => ({
  head: (max) => {
    const fields = specFields(spec, t, fmt, upTo(max));
    return { title: fields.title, head: specHeadLines(fields) };
  },
  sections: (max) => sections(spec, { t, fmt, options: upTo(max) }),
});

/**
 * A specification in full: every field; positions with material code, name and planned
 * production date; consignees; documents (DOCUMENT and DOCUMENT_LIST as one list); related
 * production requests. In parts when the lists do not fit one message.
 */
export const renderSpecDetails = detailsRenderer(specDetailsSource);
