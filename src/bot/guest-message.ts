import { z } from 'zod';

// Guest mode (Bot API 10.0): a user mentions the bot in a chat it is not a member of, and the bot
// gets an update Telegraf 4.16 does not know, `guest_message` (@grammyjs/types update.d.ts:48-49),
// a Message with `guest_query_id` (message.d.ts:20-21) and, when the user replied to something,
// that message as `reply_to_message` (botapi-10.md §5). Read here, checked with zod, from the raw update.

const entity = z.looseObject({ type: z.string(), offset: z.int().nonnegative(), length: z.int().nonnegative() });

const replied = z.looseObject({
  text: z.string().optional(),
  caption: z.string().optional(),
});

const guestMessageSchema = z.looseObject({
  guest_query_id: z.string().min(1),
  from: z.looseObject({ id: z.int(), language_code: z.string().optional() }).optional(),
  chat: z.looseObject({ id: z.int() }),
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z.array(entity).optional(),
  caption_entities: z.array(entity).optional(),
  reply_to_message: replied.optional(),
});

export type GuestMessage = z.infer<typeof guestMessageSchema>;

// Read once per update: the access check, the locale and the feature all ask.
const read = new WeakMap<object, GuestMessage | undefined>();

/** The update's guest message; undefined when it is none, or not shaped as one. */
export const guestMessageOf = (ctx: { update?: object }): GuestMessage | undefined => {
  const update = ctx.update;
  if (typeof update !== 'object' || update === null) return undefined;
  const raw = (update as Record<string, unknown>).guest_message;
  // Nearly every update is no guest message: nothing to parse or remember.
  if (raw === undefined) return undefined;
  if (read.has(update)) return read.get(update);
  const parsed = guestMessageSchema.safeParse(raw);
  const message = parsed.success ? parsed.data : undefined;
  read.set(update, message);
  return message;
};

/** What the user wrote besides mentions of the bot (`me`, its username): the words of the query. */
export const guestWords = (message: GuestMessage, me: string): string => {
  const text = message.text ?? message.caption ?? '';
  return text.replace(new RegExp(`@${me}\\b`, 'gi'), ' ').trim();
};

/** The text of the message the user replied to, if any. */
export const repliedText = (message: GuestMessage): string | undefined => {
  const reply = message.reply_to_message;
  return reply?.text ?? reply?.caption;
};
