import type { InlineQueryResultArticle } from '../../telegram/telegraf/core.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Results } from '../../portal/client.ts';
import { renderInlineNotice } from './inline-notice.ts';
import { recordsOf, withViews } from './resources.ts';

/** `rich`: the record in full as a rich message (its table), sent in place of the card `text` where the server has them. */
type Rendered = { id: string; title: string; description: string; text: string; rich?: string };

const toArticle = ({ id, title, description, text, rich }: Rendered): InlineQueryResultArticle => ({
  type: 'article',
  id,
  title,
  description,
  input_message_content:
    rich === undefined
      ? { message_text: text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } }
      : { rich_message: { html: rich } },
});

/** Telegram's limit for a result id. */
const MAX_ID_BYTES = 64;

const sameContent = (left: Rendered, right: Rendered) =>
  left.title === right.title && left.description === right.description && left.text === right.text;

/**
 * Result ids must be unique within an answer. A record the portal repeated is offered once: the
 * user could not tell the copies apart. Different records under one id (one number, different
 * data) are all offered, the later ones under the id with "~2", "~3"… (ids are ASCII: bytes are characters).
 */
const uniqueResults = (rendered: readonly Rendered[]): Rendered[] => {
  const byId = new Map<string, Rendered>();
  for (const item of rendered) {
    const earlier = byId.get(item.id);
    if (earlier === undefined) {
      byId.set(item.id, item);
      continue;
    }
    if (sameContent(earlier, item)) continue;
    for (let n = 2; ; n += 1) {
      const suffix = `~${n}`;
      const id = `${item.id.slice(0, MAX_ID_BYTES - suffix.length)}${suffix}`;
      const taken = byId.get(id);
      if (taken !== undefined && sameContent(taken, item)) break;
      if (taken === undefined) {
        byId.set(id, { ...item, id });
        break;
      }
    }
  }
  return [...byId.values()];
};

/**
 * One article per distinct record, and the offset of the next page (by the portal's count) when
 * there is one. With `rich` (the server has rich messages) a chosen record is sent as its rich
 * view (InputRichMessageContent: its table), its short card the description; else the card as HTML.
 */
export const renderInlineAnswer = (results: Results, t: Translate, fmt: Formatter, { rich = false }: { rich?: boolean } = {}) => {
  const { query, page, paging } = results;
  if (page.items.length === 0) return { results: [toArticle(renderInlineNotice('nothingFound', t, { query }, fmt))], nextOffset: '' };
  const next = paging.offset + page.items.length;
  const rendered = withViews(recordsOf(results), (items, views) =>
    items.map((record): Rendered => ({ ...views.inline(record, t, fmt), ...(rich ? { rich: views.rich(record, 0, t, fmt).html } : {}) })),
  );
  return { results: uniqueResults(rendered).map(toArticle), nextOffset: next < page.total ? String(next) : '' };
};

export const renderInlineNoticeResult = (kind: Parameters<typeof renderInlineNotice>[0], t: Translate, params?: Parameters<typeof renderInlineNotice>[2]) =>
  toArticle(renderInlineNotice(kind, t, params));
