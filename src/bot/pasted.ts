import { PortalError } from '../portal/errors.ts';
import { PAGE_SIZES, type PageSize } from '../query.ts';
import type { Identifier, Recognised } from '../recognise.ts';
import type { ResultsAnswer } from './answer-results.ts';
import type { BotContext } from './context.ts';
import { asker, type Lookups, type Via } from './lookups.ts';
import { replyOptions, replyView } from './reply.ts';
import { whileTyping } from './typing.ts';
import { rerunPayload } from './rerun.ts';
import { renderError } from './views/notices.ts';
import { renderDateQuestion, renderMaterialAnswer, renderPasted, type PastedItem } from './views/pasted.ts';
import { escapeHtml } from './views/common/html.ts';

// The identifiers a text names (src/recognise.ts), looked up and answered: one as the matching
// command would answer it; several in one message; a group's chatter (/autolookup) in compact
// lines, or not at all when nothing is found. Each identifier that reaches the portal is one query
// against the flood limit.

/**
 * /autolookup's page: one size for everyone, so that the same number said twice in the cache
 * time (PORTAL_CACHE_SECONDS) is one portal request, whoever said it.
 */
export const AUTOLOOKUP_PAGE_SIZE: PageSize = PAGE_SIZES[0];

/** What costs portal requests: a date is a question first, a bad date a refusal. */
const looksUp = (identifier: Identifier): boolean => identifier.kind === 'order' || identifier.kind === 'contract' || identifier.kind === 'material';

export type Pasted = (ctx: BotContext, recognised: Recognised, via: Via) => Promise<void>;

export const createPasted = ({ lookups, answer }: { lookups: Lookups; answer: ResultsAnswer }): Pasted => {
  /** An identifier looked up; a portal failure becomes its line, so the others still answer. */
  const itemOf = async (ctx: BotContext, identifier: Identifier, limit: PageSize, via: Via): Promise<PastedItem> => {
    const who = asker(ctx, via);
    switch (identifier.kind) {
      case 'order':
      case 'contract': {
        const { query } = identifier;
        try {
          const [results, ref] = await Promise.all([lookups.fetchPage(query, limit, 0, who), lookups.refFor(query)]);
          return { kind: 'records', ref, results };
        } catch (error) {
          if (!(error instanceof PortalError)) throw error;
          return { kind: 'failed', query, error: renderError(error, ctx.t) };
        }
      }
      case 'material': {
        const value = identifier.code;
        const orders = { resource: 'order', filter: 'POSITION[MATERIAL_SAP_ID]', value } as const;
        const specifications = { resource: 'specification', filter: 'POSITION[MATERIAL_SAP_ID]', value } as const;
        try {
          const [found, specs] = await Promise.all([lookups.fetchPage(orders, limit, 0, who), lookups.fetchPage(specifications, limit, 0, who)]);
          return { kind: 'material', code: value, orders: found.page.total, specifications: specs.page.total };
        } catch (error) {
          if (!(error instanceof PortalError)) throw error;
          return { kind: 'failed', query: orders, error: renderError(error, ctx.t) };
        }
      }
      case 'date':
        return { kind: 'date', date: identifier.date };
      case 'badDate':
        return { kind: 'badDate', text: identifier.text };
    }
  };

  /** One identifier: as the matching command answers it. */
  const single = async (ctx: BotContext, identifier: Identifier, via: Via): Promise<unknown> => {
    switch (identifier.kind) {
      case 'order':
      case 'contract': {
        const { query } = identifier;
        const ref = await lookups.refFor(query);
        // Issue 32: where the answer may go to the private chat, its note's button runs this lookup there.
        if (ctx.answerPlace) ctx.answerPlace.rerun = rerunPayload(ref) ?? rerunPayload({ key: await lookups.keyFor(query) });
        ctx.retry = { type: 'page', ref, limit: ctx.pageSize, offset: 0, refresh: true };
        const results = await whileTyping(ctx, lookups.fetchPage(query, ctx.pageSize, 0, asker(ctx, via)));
        return replyView(ctx, await answer(ctx, results, ref));
      }
      case 'material': {
        const item = await whileTyping(ctx, itemOf(ctx, identifier, ctx.pageSize, via));
        if (item.kind === 'failed') return ctx.reply(item.error, replyOptions(ctx));
        return item.kind === 'material' ? replyView(ctx, renderMaterialAnswer(item, ctx.t, ctx.fmt)) : undefined;
      }
      case 'date':
        return replyView(ctx, renderDateQuestion(identifier.date, ctx.t, ctx.fmt));
      case 'badDate':
        return ctx.reply(ctx.t('usage.badDate', { value: escapeHtml(identifier.text) }), replyOptions(ctx));
    }
  };

  return async (ctx, { identifiers, more }, via) => {
    const chatter = via === 'autolookup';
    const costly = identifiers.filter(looksUp);
    // A command was counted once already, as every command is.
    const counted = via === 'command' && costly.length > 0 ? 1 : 0;
    const allowed = Math.min(costly.length, counted + (await ctx.takeQueries(costly.length - counted, { quiet: chatter })));
    if (costly.length > 0 && allowed === 0) return;
    const skipped = new Set(costly.slice(allowed));
    const wanted = identifiers.filter((identifier) => !skipped.has(identifier));
    if (wanted.length === 1 && more === 0 && skipped.size === 0 && !chatter) {
      await single(ctx, wanted[0]!, via);
      return;
    }
    const limit = chatter ? AUTOLOOKUP_PAGE_SIZE : ctx.pageSize;
    const lookingUp = Promise.all(wanted.map((identifier) => itemOf(ctx, identifier, limit, via)));
    const items = await (chatter ? lookingUp : whileTyping(ctx, lookingUp));
    const view = renderPasted({ items, style: chatter ? 'lines' : 'cards', more, slowed: skipped.size }, ctx.t, ctx.fmt);
    if (view) await replyView(ctx, view);
  };
};
