import { EMPTY_VALUE } from '../../../format.ts';
import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { FieldChange, RecordChange } from '../../../watch/changes.ts';
import {
  fieldLine,
  headLines,
  itemFieldLine,
  itemLabel,
  itemValue,
  showMetres,
  showMoney,
  showNumberValue,
  showPieces,
  showText,
  showTonnes,
  showUnit,
  titleText,
  type FieldView,
} from '../change-lines.ts';
import { say } from '../common/card-parts.ts';
import { itemName } from '../../../watch/diff.ts';

// An order's changes as the lines of a notification (field names: src/watch/snapshot.ts).

const FIELDS: Record<string, FieldView> = {
  status: { label: 'change.label.status', show: showText },
  statusCode: { label: 'change.label.statusCode', show: showText },
  sum: { label: 'change.label.sum', show: showMoney },
  prepayment: { label: 'change.label.prepayment', show: showMoney },
  weight: { label: 'change.label.weight', show: showTonnes },
  metres: { label: 'change.label.metres', show: showMetres },
  pieces: { label: 'change.label.pieces', show: showPieces },
};

const POSITION_FIELDS: Record<string, FieldView> = {
  material: { label: 'change.label.material', show: showText },
  materialCode: { label: 'change.label.materialCode', show: showText },
  // The unit is not part of the change; a change of unit is a line of its own.
  quantity: { label: 'change.label.quantity', show: showNumberValue },
  measure: { label: 'change.label.measure', show: showUnit },
  price: { label: 'change.label.price', show: showMoney },
  currency: { label: 'change.label.currency', show: showText },
};

/** «<b>Заказ № 0007300100</b> от 15.03.2026»: of a change, or of a record as a snapshot keeps it. */
export const orderTitle = (change: Pick<RecordChange, 'sapId' | 'title'>, t: Translate, fmt: Formatter): string => {
  const sapId = titleText(change, 'sapId') || change.sapId || EMPTY_VALUE;
  const date = titleText(change, 'date');
  return date === '' ? say(t, 'order.title', { sapId }) : say(t, 'order.titleDated', { sapId, date: fmt.date(date) });
};

const positionAdded = (change: Extract<FieldChange, { kind: 'itemAdded' | 'itemRemoved' }>, t: Translate, fmt: Formatter): string => {
  const name = showText(itemValue(change.fields, 'material') ?? itemValue(change.fields, 'materialCode'), t, fmt);
  const item = showText(change.item, t, fmt);
  const quantity = itemValue(change.fields, 'quantity');
  if (typeof quantity !== 'number') return t('change.positionAdded', { item, name });
  const measure = itemValue(change.fields, 'measure');
  return t('change.positionAddedWithValue', { item, name, value: showText(fmt.quantity(quantity, typeof measure === 'string' ? measure : ''), t, fmt) });
};

const lineOf = (change: FieldChange, t: Translate, fmt: Formatter, statusChanged: boolean): string | null => {
  switch (change.kind) {
    case 'field':
      // The status reads as its text: a new code is told on its own only when the text stayed.
      return change.field === 'statusCode' && statusChanged ? null : fieldLine(change, FIELDS, t, fmt);
    case 'itemAdded':
      return change.list === 'positions' ? positionAdded(change, t, fmt) : null;
    case 'itemRemoved':
      return change.list === 'positions' ? t('change.positionRemoved', { item: itemLabel(change.item, itemName(change.fields), t, fmt) }) : null;
    case 'itemField':
      return change.list === 'positions' ? itemFieldLine('change.positionField', change, POSITION_FIELDS, t, fmt) : null;
  }
};

/** The header, then «Новая запись по запросу» / «Больше не подходит под запрос» or one line per change (HTML). */
export const renderOrderChange = (change: RecordChange, t: Translate, fmt: Formatter): string[] => {
  const statusChanged = change.changes.some((item) => item.kind === 'field' && item.field === 'status');
  const lines = change.changes.map((item) => lineOf(item, t, fmt, statusChanged)).filter((line) => line !== null);
  return [...headLines(change, orderTitle(change, t, fmt), t), ...lines];
};
