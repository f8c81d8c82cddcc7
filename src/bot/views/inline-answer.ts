import type { InlineQueryResultArticle } from 'telegraf/types';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Results } from '../../portal/client.ts';
import { renderInlineNotice, renderInlineResult } from './inline-result.ts';

type Rendered = { id: string; title: string; description: string; text: string };

const toArticle = ({ id, title, description, text }: Rendered): InlineQueryResultArticle => ({
  type: 'article',
  id,
  title,
  description,
  input_message_content: { message_text: text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } },
});

/** One article per record, and the offset of the next page when there is one. */
export const renderInlineAnswer = (results: Results, t: Translate, fmt: Formatter) => {
  const { query, page, paging } = results;
  if (page.items.length === 0) return { results: [toArticle(renderInlineNotice('nothingFound', t, { query }, fmt))], nextOffset: '' };
  const next = paging.offset + page.items.length;
  return {
    results: page.items.map((record) => toArticle(renderInlineResult(query, record, t, fmt))),
    nextOffset: next < page.total ? String(next) : '',
  };
};

export const renderInlineNoticeResult = (kind: Parameters<typeof renderInlineNotice>[0], t: Translate, params?: Parameters<typeof renderInlineNotice>[2]) =>
  toArticle(renderInlineNotice(kind, t, params));
