import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Resource } from '../../query.ts';
import type { RecordChange } from '../../watch/changes.ts';
import { renderOrderChange } from './order/change.ts';
import { renderSpecChange } from './specification/change.ts';

// How each resource tells a record's changes. Beside resources.ts rather than in it: that table
// is typed by the portal record, and a change is not one.

export type ChangeView = (change: RecordChange, t: Translate, fmt: Formatter) => string[];

export const CHANGE_VIEWS: Record<Resource, ChangeView> = {
  order: renderOrderChange,
  specification: renderSpecChange,
};
