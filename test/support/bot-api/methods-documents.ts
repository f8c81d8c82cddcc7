// sendDocument, with a file uploaded as multipart/form-data (the only way the emulator takes one).
import { extname } from 'node:path';
import { assertBotCanWrite } from './chats.ts';
import { cleanInputText } from './clean-input.ts';
import { trimFormatted, utf16Length } from './entities.ts';
import { BotApiError, badRequest } from './errors.ts';
import { readReplyMarkup } from './keyboard.ts';
import type { MethodContext, MethodHandler } from './method-context.ts';
import type { UploadedFile } from './params.ts';
import { readReplyTarget, readThread } from './methods-messages.ts';
import type { ParsedText } from './html.ts';
import { botAsSender } from './state.ts';
import { parseFormattedText, readParseMode } from './text.ts';

/** Telegram's limit for a file a bot uploads. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
export const MAX_CAPTION_LENGTH = 1024;

// The type the upload declares, or when it declares none (or only "bytes"), one named from the
// file name's extension, as Telegram detects it.
const MIME_TYPES: Record<string, string> = {
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.zip': 'application/zip',
};

const OCTET_STREAM = 'application/octet-stream';
const mimeType = ({ filename, type }: UploadedFile): string =>
  type !== '' && type !== OCTET_STREAM ? type : (MIME_TYPES[extname(filename).toLowerCase()] ?? OCTET_STREAM);

/** The caption as Telegram stores it: parsed like a message text, cleaned of control characters, trimmed, at most 1024 characters. */
function readCaption({ params, state }: MethodContext): ParsedText {
  const source = params.string('caption');
  if (source === undefined) return { text: '', entities: [] };
  const parsed = trimFormatted(
    cleanInputText(parseFormattedText(source, readParseMode(params.string('parse_mode')), params.json('caption_entities', 'message entities'), state.options)),
  );
  if (utf16Length(parsed.text) > MAX_CAPTION_LENGTH) throw badRequest('message caption is too long');
  return parsed;
}

export const sendDocument: MethodHandler = (context) => {
  const { params, state } = context;
  const file = params.file('document');
  // refused at the door, before any parameter is looked at
  if (file !== undefined && file.size > MAX_UPLOAD_BYTES) throw new BotApiError(413, 'Request Entity Too Large');
  const markup = readReplyMarkup(params.json('reply_markup', 'reply keyboard markup'), { inlineOnly: false });
  readParseMode(params.string('parse_mode'));
  // Telegram takes them (10.3); the emulator does not keep ephemeral documents, so it says so rather than post one publicly.
  if (params.has('ephemeral_message_parameters')) throw new Error('bot API emulator: ephemeral documents are not emulated');
  const record = state.chats.resolve(params);
  context.noteChat(record.chat.id);
  assertBotCanWrite(record);
  if (file === undefined) {
    // a string is a file_id or a URL: the emulator knows no files on Telegram's servers
    throw badRequest(params.has('document') ? 'wrong file identifier/HTTP URL specified' : 'there is no document in the request');
  }
  if (file.size === 0) throw badRequest('file must be non-empty');
  const caption = readCaption(context);
  const replyTo = readReplyTarget(context, record);
  const messageId = record.nextMessageId;
  const stored = state.chats.add(record.chat.id, {
    from: botAsSender(state.bot),
    by_bot: true,
    date: state.clock.unix(),
    sent_at_ms: state.clock.nowMs(),
    text: caption.text,
    entities: caption.entities,
    source: params.string('caption') ?? '',
    parse_mode: readParseMode(params.string('parse_mode')),
    reply_markup: markup?.inline,
    reply_keyboard: markup?.other,
    reply_to_message_id: replyTo?.message_id,
    ...readThread(context, record, replyTo),
    document: {
      file_id: `BQACAgIAAxkBAAI${record.chat.id}_${messageId}`,
      file_unique_id: `AgAD${Math.abs(record.chat.id)}_${messageId}`,
      file_name: file.filename,
      mime_type: mimeType(file),
      upload_type: file.type,
      bytes: file.bytes,
    },
  });
  state.feed.emit();
  return state.chats.toApiMessage(stored);
};
