import type { Access } from '../../access.ts';
import { recognise, type Span } from '../../recognise.ts';
import { recordTarget } from '../../watch/record-target.ts';
import type { Watches } from '../../watch/watches.ts';
import type { AutolookupSwitch } from '../autolookup-switch.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { mentionsMe, repliesToMe, textOf } from '../filters/addressed.ts';
import { onCallback } from '../filters/on-callback.ts';
import type { Lookups, Via } from '../lookups.ts';
import type { Pasted } from '../pasted.ts';
import { replyOptions, replyView } from '../reply.ts';
import { renderRecord } from '../views/record.ts';
import { recordIds, recordsOf } from '../views/resources.ts';
import { watchState } from '../watching.ts';

/** Entities that are not the sender's words about records: read as blanks. */
const NOT_WORDS = new Set(['mention', 'text_mention', 'bot_command', 'url', 'email', 'phone_number', 'hashtag', 'cashtag']);

/** A message that starts with a command: a command feature's, or the fallback's. */
const isCommand = (ctx: BotContext): boolean => {
  const message = ctx.message;
  return message !== undefined && 'text' in message && message.entities?.[0]?.type === 'bot_command' && message.entities[0].offset === 0;
};

/**
 * Numbers in plain text: in a private chat every message (a forwarded one, a caption too); in a
 * group a mention of the bot or a reply to it, and, where an admin turned /autolookup on, every
 * message (strict shapes only, silent when nothing is found). Nothing recognised: on to the
 * fallback, which says what can be pasted. Also the number buttons under such answers, which open
 * a record as a new message, so that the answer stays.
 */
export const createPasteFeature = ({
  pasted,
  autolookup,
  access,
  lookups,
  watches,
  now,
}: {
  pasted: Pasted;
  autolookup: AutolookupSwitch;
  access: Pick<Access, 'mayWatchIn'>;
  lookups: Lookups;
  watches: Watches;
  now: () => Date;
}) => {
  const feature = createFeature();
  /** A group whose every member may use the bot: the only kind /autolookup reads. */
  // A group on the list (or granted by an admin) is one whose messages the bot may read for numbers.
  const allowedGroup = (chatId: number) => access.mayWatchIn(chatId);

  const viaOf = async (ctx: BotContext): Promise<Via | undefined> => {
    if (ctx.chat?.type === 'private') return 'pasted';
    if (mentionsMe(ctx)) return 'mention';
    if (repliesToMe(ctx)) return 'pasted';
    if (ctx.chat === undefined || ctx.from?.is_bot !== false || !allowedGroup(ctx.chat.id)) return undefined;
    return (await autolookup.enabled(ctx.chat.id)) ? 'autolookup' : undefined;
  };

  feature.on('message', async (ctx, next) => {
    const found = textOf(ctx);
    if (found === undefined || isCommand(ctx)) return next();
    const via = await viaOf(ctx);
    if (via === undefined) return next();
    const skip: Span[] = found.entities.filter((entity) => NOT_WORDS.has(entity.type));
    const recognised = recognise(found.text, via === 'autolookup' ? 'strict' : 'loose', skip);
    // Chatter in a group with private answers goes to its writer's private chat, or nowhere (issue 32).
    if (via === 'autolookup' && ctx.answerPlace !== undefined) ctx.answerPlace.quiet = true;
    if (recognised.identifiers.length > 0) return pasted(ctx, recognised, via);
    // Chatter that names nothing is none of the bot's business.
    return via === 'autolookup' ? undefined : next();
  });

  feature.use(
    onCallback('openRecord', async (ctx, action) => {
      const results = await lookups.pressed(ctx, { ...action, refresh: false }, action, { exact: true });
      if (!results) return;
      const index = recordIds(recordsOf(results)).indexOf(action.id);
      const target = index < 0 ? undefined : recordTarget(results, index);
      const watch = target ? await watchState(watches, ctx, target) : undefined;
      const view = index < 0 ? undefined : renderRecord(results, { index, part: 0 }, { list: action.ref }, ctx.t, ctx.fmt, now(), watch);
      if (view) await replyView(ctx, view);
      else await ctx.reply(ctx.t('details.gone'), replyOptions(ctx));
    }),
  );
  return feature;
};
