import type { Access } from '../../access.ts';
import type { AccessStore } from '../../store/access-store.ts';
import type { UsageStore } from '../../store/usage-store.ts';
import type { Usage } from '../../store/usage.ts';
import type { AccessChanges } from '../access-changes.ts';
import type { AccessRequests } from '../access-requests.ts';
import { parseAdminTarget } from '../admin-args.ts';
import type { CommandContext } from '../feature.ts';
import { createFeature } from '../feature.ts';
import { onCallback } from '../filters/on-callback.ts';
import { replyOptions } from '../reply.ts';
import { renderAccessChange, renderUsers } from '../views/admin.ts';

export type AdminDeps = {
  access: Access;
  store: Pick<AccessStore, 'users' | 'chats'>;
  /** When each was last seen. */
  seen: Pick<UsageStore, 'lastSeen'>;
  /** This process's counts not yet in the store (last seen among them): added first. */
  usage?: Pick<Usage, 'flush'>;
  changes: AccessChanges;
  requests: Pick<AccessRequests, 'decide'>;
  now: () => Date;
};

/** /allow, /deny and /users for the bot's admins; Allow / Deny on access requests; anyone else is told it is for admins. */
export const createAdminFeature = ({ access, store, seen, usage, changes, requests, now }: AdminDeps) => {
  const feature = createFeature();

  const change = (command: 'allow' | 'deny') => async (ctx: CommandContext) => {
    if (!access.isAdmin(ctx.from.id)) {
      changes.refuse(command, ctx.from.id);
      return ctx.reply(ctx.t('admin.onlyAdmins'), replyOptions(ctx));
    }
    const inGroup = ctx.chat.type !== 'private';
    const target = parseAdminTarget(ctx.payload, ctx.message, inGroup);
    const chat = { id: ctx.chat.id, ...('title' in ctx.chat ? { title: ctx.chat.title } : {}) };
    const result = await changes.apply(command, ctx.from.id, chat, target);
    return ctx.reply(renderAccessChange(result, command, access.options.anyone, ctx.t, ctx.fmt, now()), replyOptions(ctx));
  };
  feature.command('allow', change('allow'));
  feature.command('deny', change('deny'));

  feature.command('users', async (ctx) => {
    if (!access.isAdmin(ctx.from.id)) return ctx.reply(ctx.t('admin.onlyAdmins'), replyOptions(ctx));
    const [users, chats] = [await store.users(), await store.chats()];
    const { adminIds, userIds, chatIds, anyone } = access.options;
    const envUsers = [...userIds].filter((id) => !adminIds.has(id));
    const ids = [...adminIds, ...envUsers, ...chatIds, ...users.map((grant) => grant.id), ...chats.map((grant) => grant.id)];
    await usage?.flush();
    const list = { anyone, admins: [...adminIds], envUsers, envChats: [...chatIds], users, chats, seen: await seen.lastSeen(ids) };
    return ctx.reply(renderUsers(list, ctx.t, ctx.fmt, now()), replyOptions(ctx));
  });

  feature.use(
    // A stranger's press went to the admins from the access middleware; here, someone who may use the bot already.
    onCallback('requestAccess', (ctx) => ctx.answerOnce(ctx.t('access.alreadyAllowed'), true)),
    onCallback('decideAccess', (ctx, action) => requests.decide(ctx, action.requestId, action.decision)),
  );
  return feature;
};
