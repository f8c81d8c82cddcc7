import { EMPTY_VALUE } from '../../../format.ts';
import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Document, Specification, SpecificationPosition } from '../../../portal/schemas.ts';
import { DEFAULT_CARD_OPTIONS, clip, joinLines, listLine, positionLines, say } from '../common/card-parts.ts';
import type { CardOptions } from '../common/card-parts.ts';
import { escapeHtml } from '../common/html.ts';
import { specDocuments } from '../../../portal/documents.ts';
import { consigneeNames, relatedOrderNumbers } from './lists.ts';
import { specStatusLabel } from './status.ts';

type Parts = { t: Translate; fmt: Formatter; options: CardOptions };

const dateOf = (timestamp: string | null, { fmt, options }: Parts): string | null =>
  timestamp === null ? null : clip(fmt.date(timestamp), options);

const titleLine = (spec: Specification, parts: Parts): string => {
  const number = clip(spec.SPECIFICATION_NUMBER, parts.options);
  return number === '' ? say(parts.t, 'spec.titleNoNumber') : say(parts.t, 'spec.title', { number });
};

const contractLine = (spec: Specification, parts: Parts): string | null => {
  const number = clip(spec.CONTRACT_NUMBER, parts.options);
  const date = dateOf(spec.CONTRACT_DATE, parts);
  if (number === '') return date === null ? null : say(parts.t, 'spec.contractDate', { date });
  return date === null ? say(parts.t, 'spec.contractNumber', { number }) : say(parts.t, 'spec.contract', { number, date });
};

const validityLine = (spec: Specification, parts: Parts): string | null => {
  const from = dateOf(spec.DATE_ACTIVE_FROM, parts);
  const openEnded = parts.fmt.isOpenEnded(spec.DATE_ACTIVE_TO);
  const to = openEnded ? null : dateOf(spec.DATE_ACTIVE_TO, parts);
  if (from === null) {
    if (openEnded) return say(parts.t, 'spec.validOpenEnded');
    return to === null ? null : say(parts.t, 'spec.validTo', { to });
  }
  if (openEnded) return say(parts.t, 'spec.validFromOpenEnded', { from });
  return to === null ? say(parts.t, 'spec.validFrom', { from }) : say(parts.t, 'spec.validFromTo', { from, to });
};

/** A document with a number or a date (the list holds no others). */
const documentText = (document: Document, parts: Parts): string => {
  const number = clip(document.NUMBER, parts.options);
  const date = dateOf(document.DATE, parts);
  if (number === '') return say(parts.t, 'spec.documentDated', { date: date ?? '' });
  return date === null ? say(parts.t, 'spec.documentNumber', { number }) : say(parts.t, 'spec.document', { number, date });
};

const escapedText = (value: string, parts: Parts): string => escapeHtml(clip(value, parts.options));

/** Consignees, documents and production requests: one line each. */
const listLines = (spec: Specification, parts: Parts): Array<string | null> => {
  const { t, options } = parts;
  const text = (value: string) => escapedText(value, parts);
  const documents = specDocuments(spec).filter((document) => document.NUMBER.trim() !== '' || document.DATE !== null);
  return [
    listLine(t, { singular: 'spec.consignee', plural: 'spec.consignees' }, consigneeNames(spec), text, options),
    listLine(t, { singular: 'spec.documentOne', plural: 'spec.documents' }, documents, (document) => documentText(document, parts), options),
    listLine(t, { singular: 'spec.request', plural: 'spec.requests' }, relatedOrderNumbers(spec), text, options, ', '),
  ];
};

const positionLine = (position: SpecificationPosition, parts: Parts): string => {
  const name = clip(position.MATERIAL_NAME.trim() || position.MATERIAL_SAP_ID, parts.options) || EMPTY_VALUE;
  const date = dateOf(position.DATE_PLANNED_PRODUCTION, parts);
  return parts.t('card.positionWithValue', {
    name: escapeHtml(name),
    value: date === null ? parts.t('spec.notPlanned') : escapeHtml(date),
  });
};

/** The title and the key fields as lines (HTML), each null when its field is empty. */
export type SpecFields = {
  title: string;
  contract: string | null;
  sapId: string | null;
  status: string | null;
  validity: string | null;
  plannedWeight: string | null;
  prepayment: string | null;
};

export const specFields = (spec: Specification, t: Translate, fmt: Formatter, options: CardOptions): SpecFields => {
  const parts: Parts = { t, fmt, options };
  return {
    title: titleLine(spec, parts),
    contract: contractLine(spec, parts),
    sapId: spec.SAP_ID.trim() === '' ? null : say(t, 'spec.sapId', { value: clip(spec.SAP_ID, options) }),
    status: specStatusLabel(spec, t, fmt, options),
    validity: validityLine(spec, parts),
    plannedWeight:
      spec.PLANNED_WEIGHT_TONN === null ? null : say(t, 'spec.plannedWeight', { value: fmt.quantity(spec.PLANNED_WEIGHT_TONN, 'TNE') }),
    prepayment: spec.PREPAYMENT === null ? null : say(t, 'card.prepayment', { value: fmt.money(spec.PREPAYMENT) }),
  };
};

/** The key fields in the order cards and details show them. */
export const specHeadLines = (fields: SpecFields): Array<string | null> => [
  fields.contract,
  fields.sapId,
  fields.status,
  fields.validity,
  fields.plannedWeight,
  fields.prepayment,
];

/** «№ 123 от 01.02.2026» (HTML) for a document with a number or a date. */
export const renderDocument = (document: Document, t: Translate, fmt: Formatter, options: CardOptions): string =>
  documentText(document, { t, fmt, options });

export const renderSpecCard = (
  spec: Specification,
  t: Translate,
  fmt: Formatter,
  options: CardOptions = DEFAULT_CARD_OPTIONS,
): string => {
  const parts: Parts = { t, fmt, options };
  const fields = specFields(spec, t, fmt, options);
  // A brief card keeps the contract, the status and the validity.
  const head = options.brief ? [fields.contract, fields.status, fields.validity] : specHeadLines(fields);
  return joinLines([
    fields.title,
    ...head,
    ...(options.brief ? [] : listLines(spec, parts)),
    ...positionLines(t, 'spec.positions', spec.POSITION, (position) => positionLine(position, parts), options),
  ]);
};
