import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { FieldChange, RecordChange, Value } from '../../../watch/changes.ts';
import { fieldLine, headLines, itemFieldLine, itemLabel, itemValue, showDate, showMoney, showText, showTonnes, titleText, type FieldView, type Show } from '../change-lines.ts';
import { say } from '../common/card-parts.ts';
import { escapeHtml } from '../common/html.ts';
import { itemName } from '../../../watch/diff.ts';

// A specification's changes as the lines of a notification (field and list names:
// src/watch/snapshot.ts). Status codes are shown as they are: their meanings are not published.

/** A validity end far in the future reads «бессрочно». */
const showValidTo: Show = (value, t, fmt) => (typeof value === 'string' && fmt.isOpenEnded(value) ? t('change.openEnded') : showDate(value, t, fmt));

/** No planned production date reads «не запланировано». */
const showPlanned: Show = (value, t, fmt) => (value === null || value === '' ? t('spec.notPlanned') : showDate(value, t, fmt));

const FIELDS: Record<string, FieldView> = {
  status: { label: 'change.label.status', show: showText },
  statusType: { label: 'change.label.statusType', show: showText },
  validFrom: { label: 'change.label.validFrom', show: showDate },
  validTo: { label: 'change.label.validTo', show: showValidTo },
  plannedWeight: { label: 'change.label.plannedWeight', show: showTonnes },
  prepayment: { label: 'change.label.prepayment', show: showMoney },
};

const POSITION_FIELDS: Record<string, FieldView> = {
  material: { label: 'change.label.material', show: showText },
  materialCode: { label: 'change.label.materialCode', show: showText },
  planned: { label: 'change.label.planned', show: showPlanned },
};

const DOCUMENT_FIELDS: Record<string, FieldView> = {
  number: { label: 'change.label.documentNumber', show: showText },
  date: { label: 'change.label.documentDate', show: showDate },
};

const REQUEST_FIELDS: Record<string, FieldView> = {
  number: { label: 'change.label.requestNumber', show: showText },
  date: { label: 'change.label.requestDate', show: showDate },
};

/** «<b>Спецификация № 12</b> · договор ДП-77/2026»: of a change, or of a record as a snapshot keeps it. */
export const specTitle = (change: Pick<RecordChange, 'title'>, t: Translate): string => {
  const number = titleText(change, 'number');
  const contract = titleText(change, 'contract');
  const title = number === '' ? say(t, 'spec.titleNoNumber') : say(t, 'spec.title', { number });
  return contract === '' ? title : t('change.specTitle', { title, contract: escapeHtml(contract) });
};

/** «АКТ-555 от 20.11.2026» (HTML). */
const documentText = (fields: Record<string, Value>, t: Translate, fmt: Formatter): string => {
  const number = itemValue(fields, 'number');
  const date = itemValue(fields, 'date');
  if (number === null) return date === null ? showText(null, t, fmt) : t('change.documentDated', { date: showDate(date, t, fmt) });
  return date === null ? showText(number, t, fmt) : t('change.document', { number: showText(number, t, fmt), date: showDate(date, t, fmt) });
};

type ItemChange = Extract<FieldChange, { kind: 'itemAdded' | 'itemRemoved' }>;

const positionAdded = (change: ItemChange, t: Translate, fmt: Formatter): string =>
  t('change.positionAddedWithValue', {
    item: showText(change.item, t, fmt),
    name: showText(itemValue(change.fields, 'material') ?? itemValue(change.fields, 'materialCode'), t, fmt),
    value: showPlanned(itemValue(change.fields, 'planned'), t, fmt),
  });

/** An item added to or removed from one of the lists. */
const itemLine = (change: ItemChange, t: Translate, fmt: Formatter): string | null => {
  const added = change.kind === 'itemAdded';
  const item = showText(change.item, t, fmt);
  switch (change.list) {
    case 'positions':
      return added ? positionAdded(change, t, fmt) : t('change.positionRemoved', { item: itemLabel(change.item, itemName(change.fields), t, fmt) });
    case 'documents':
      return t(added ? 'change.documentAdded' : 'change.documentRemoved', { document: documentText(change.fields, t, fmt) });
    case 'consignees':
      return t(added ? 'change.consigneeAdded' : 'change.consigneeRemoved', { name: showText(itemValue(change.fields, 'name') ?? change.item, t, fmt) });
    case 'requests':
      return t(added ? 'change.requestAdded' : 'change.requestRemoved', { number: item });
    default:
      return null;
  }
};

const ITEM_FIELD_LINES: Record<string, { key: string; fields: Record<string, FieldView> }> = {
  positions: { key: 'change.positionField', fields: POSITION_FIELDS },
  // A document's key is the portal's row id, which means nothing to a reader: the label says it all.
  documents: { key: 'change.field', fields: DOCUMENT_FIELDS },
  requests: { key: 'change.requestField', fields: REQUEST_FIELDS },
};

const lineOf = (change: FieldChange, t: Translate, fmt: Formatter): string | null => {
  switch (change.kind) {
    case 'field':
      return fieldLine(change, FIELDS, t, fmt);
    case 'itemAdded':
    case 'itemRemoved':
      return itemLine(change, t, fmt);
    case 'itemField': {
      const list = Object.hasOwn(ITEM_FIELD_LINES, change.list) ? ITEM_FIELD_LINES[change.list] : undefined;
      return list === undefined ? null : itemFieldLine(list.key, change, list.fields, t, fmt);
    }
  }
};

/** The header, then «Новая запись по запросу» / «Больше не подходит под запрос» or one line per change (HTML). */
export const renderSpecChange = (change: RecordChange, t: Translate, fmt: Formatter): string[] => [
  ...headLines(change, specTitle(change, t), t),
  ...change.changes.map((item) => lineOf(item, t, fmt)).filter((line) => line !== null),
];
