import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Query } from '../../query.ts';
import { say } from './common/card-parts.ts';
import { describeQuery } from './common/describe-query.ts';
import { escapeHtml, toPlainText } from './common/html.ts';
import type { InlineItem } from './common/inline-item.ts';

export type InlineNoticeKind = 'usage' | 'notAllowed' | 'nothingFound' | 'failed';

/** notAllowed names the user's id; nothingFound repeats the query. */
export type InlineNoticeParams = { id?: number | string; query?: Query };

const NOTICE_KEYS: Record<InlineNoticeKind, { title: string; description: string }> = {
  usage: { title: 'inline.usageTitle', description: 'inline.usageDescription' },
  notAllowed: { title: 'inline.notAllowedTitle', description: 'inline.notAllowedDescription' },
  nothingFound: { title: 'inline.nothingTitle', description: 'inline.nothingDescription' },
  failed: { title: 'inline.failedTitle', description: 'inline.failedDescription' },
};

/** The only result of an answer that has no records: how to search, no access, nothing found, the portal failed. */
export const renderInlineNotice = (
  kind: InlineNoticeKind,
  t: Translate,
  params: InlineNoticeParams = {},
  fmt?: Formatter,
): InlineItem => {
  const keys = NOTICE_KEYS[kind];
  const values = {
    id: params.id ?? '',
    filter: params.query === undefined ? '' : toPlainText(describeQuery(params.query, t, fmt)),
  };
  const title = t(keys.title, values);
  return {
    id: `notice:${kind}`,
    title,
    description: t(keys.description, values),
    text: `<b>${escapeHtml(title)}</b>\n${say(t, keys.description, values)}`,
  };
};
