import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Resource } from '../../query.ts';
import type { RecordChange } from '../../watch/changes.ts';
import { orderTitle, renderOrderChange } from './order/change.ts';
import { renderSpecChange, specTitle } from './specification/change.ts';

// How each resource tells a record's changes. Beside resources.ts rather than in it: that table
// is typed by the portal record, and a change is not one.

export type ChangeView = (change: RecordChange, t: Translate, fmt: Formatter) => string[];

export const CHANGE_VIEWS: Record<Resource, ChangeView> = {
  order: renderOrderChange,
  specification: renderSpecChange,
};

/** A record's title (HTML), from a change or a snapshot. */
export type RecordTitle = (record: Pick<RecordChange, 'sapId' | 'title'>, t: Translate, fmt: Formatter) => string;

export const RECORD_TITLES: Record<Resource, RecordTitle> = {
  order: orderTitle,
  specification: (record, t) => specTitle(record, t),
};

/**
 * One line for a record's change: «<b>Заказ № 0007300100</b> от 15.03.2026: Статус: Производство
 * → Отгружен (и ещё 2 изменения)»; a record that entered or left says so.
 */
export const renderChangeLine = (resource: Resource, change: RecordChange, t: Translate, fmt: Formatter): string => {
  const title = RECORD_TITLES[resource](change, t, fmt);
  if (change.kind !== 'changed') return t('change.line', { title, what: t(change.kind === 'entered' ? 'change.entered' : 'change.left') });
  // The view's first line is the header; the lines after it are the changes, the status first.
  const lines = CHANGE_VIEWS[resource](change, t, fmt).slice(1);
  const [first = ''] = lines;
  const what = lines.length > 1 ? t('change.lineMore', { first, count: lines.length - 1 }) : first;
  return t('change.line', { title, what });
};
