import type { InlineQueryResult } from '../../telegram/telegraf/core.ts';
import type { Access } from '../../access.ts';
import { createFeature } from '../feature.ts';
import type { Statuses } from '../statuses.ts';
import { parseResourceArgs } from '../lookup-args.ts';
import { asker, type Lookups } from '../lookups.ts';
import { renderInlineAnswer, renderInlineNoticeResult } from '../views/inline-answer.ts';
import { answerInline } from '../reply.ts';

/** Results are commercial data: personal to the user, and cached by Telegram only briefly. */
export const INLINE_CACHE_SECONDS = 10;
/** The largest page the portal gives: one portal call per inline answer. */
const INLINE_PAGE_SIZE = 20;

/** `@bot 0007300100`, `@bot spec ДП-77/2026`, `@bot material труба 530` in any chat. */
export const createInlineFeature = ({ lookups, access, now = () => new Date(), statuses }: { lookups: Lookups; access: Pick<Access, 'isAllowedUser'>; now?: () => Date; statuses?: Statuses }) => {
  const feature = createFeature();
  feature.on('inline_query', async (ctx) => {
    const answer = (results: InlineQueryResult[], nextOffset = '') =>
      answerInline(ctx, results, { cache_time: INLINE_CACHE_SECONDS, is_personal: true, next_offset: nextOffset });
    if (!access.isAllowedUser(ctx.from.id)) return answer([renderInlineNoticeResult('notAllowed', ctx.t, { id: ctx.from.id })]);
    const args = parseResourceArgs(ctx.inlineQuery.query, { today: ctx.fmt.day(now()) });
    if (!args.ok) return answer([renderInlineNoticeResult('usage', ctx.t)]);
    const offset = /^\d{1,7}$/.test(ctx.inlineQuery.offset) ? Number(ctx.inlineQuery.offset) : 0;
    const query = statuses ? await statuses.codeFor(args.query) : args.query;
    const results = await lookups.fetchPage(query, INLINE_PAGE_SIZE, offset, asker(ctx, 'inline'));
    const view = renderInlineAnswer(results, ctx.t, ctx.fmt, { rich: ctx.features.has('richMessages') });
    return answer(view.results, view.nextOffset);
  });
  return feature;
};
