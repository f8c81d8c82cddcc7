// What each closed HTML tag becomes, after tdlib's parse_html (including its pre/code pairing).
import type { MessageEntity } from '@grammyjs/types';
import type { BotApiError } from './errors.ts';

export interface OpenTag {
  tag: string;
  argument: string;
  offset: number;
}

export interface RawEntity {
  entity: MessageEntity;
  /** the code tag's language, kept until a surrounding pre claims it */
  language: string;
}

export function closeEntity(top: OpenTag, out: string, raw: RawEntity[], fail: (detail: string) => BotApiError): void {
  const offset = top.offset;
  const length = out.length - offset;
  const add = (entity: MessageEntity, language = ''): void => {
    raw.push({ entity, language });
  };
  const last = raw.at(-1);
  const sameRange = last !== undefined && last.entity.offset === offset && last.entity.length === length;
  switch (top.tag) {
    case 'b':
    case 'strong':
      return add({ type: 'bold', offset, length });
    case 'i':
    case 'em':
      return add({ type: 'italic', offset, length });
    case 'u':
    case 'ins':
      return add({ type: 'underline', offset, length });
    case 's':
    case 'strike':
    case 'del':
      return add({ type: 'strikethrough', offset, length });
    case 'tg-spoiler':
    case 'span':
      return add({ type: 'spoiler', offset, length });
    case 'blockquote':
      return add({ type: top.argument === 'expandable' ? 'expandable_blockquote' : 'blockquote', offset, length } as MessageEntity);
    case 'tg-time':
      return add(dateTimeEntity(top.argument, offset, length, fail));
    case 'tg-emoji':
      if (!/^[0-9]+$/.test(top.argument) || /^0+$/.test(top.argument)) {
        throw fail('Invalid custom emoji identifier specified');
      }
      return add({ type: 'custom_emoji', offset, length, custom_emoji_id: top.argument });
    case 'a':
      return addLink(top.argument || out.slice(offset), offset, length, add);
    case 'code':
      if (sameRange && last.entity.type === 'pre' && top.argument !== '') {
        last.entity = { type: 'pre', offset, length, language: top.argument };
        return;
      }
      return add({ type: 'code', offset, length }, top.argument);
    case 'pre':
      if (sameRange && last.entity.type === 'code' && last.language !== '') {
        last.entity = { type: 'pre', offset, length, language: last.language };
        return;
      }
      return add({ type: 'pre', offset, length });
  }
}

function addLink(url: string, offset: number, length: number, add: (entity: MessageEntity) => void): void {
  const mention = /^tg:\/\/user\?id=(\d+)$/i.exec(url);
  if (mention) {
    add({ type: 'text_mention', offset, length, user: { id: Number(mention[1]), is_bot: false, first_name: '' } });
    return;
  }
  // Telegram drops links it cannot check instead of failing the message
  const checked = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `http://${url}`;
  if (URL.canParse(checked) && !/\s/.test(url)) add({ type: 'text_link', offset, length, url: checked });
}

const DATE_TIME_FORMAT = /^(r|w?[dD]?[tT]?)$/;
type DateTimeFormat = Extract<MessageEntity, { type: 'date_time' }>['date_time_format'];
const isDateTimeFormat = (format: string): format is DateTimeFormat => DATE_TIME_FORMAT.test(format);

/** <tg-time unix="…" format="…"> (Bot API 9.5): `format` is optional and must match r|w?[dD]?[tT]?. */
function dateTimeEntity(argument: string, offset: number, length: number, fail: (detail: string) => BotApiError): MessageEntity {
  const fields = Object.fromEntries(argument.split(';').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
  const unix = fields.unix === undefined ? Number.NaN : Number(fields.unix);
  if (!Number.isInteger(unix) || unix < 0) throw fail('Tag "tg-time" must have a valid attribute "unix"');
  const format = fields.format ?? '';
  if (!isDateTimeFormat(format)) throw fail(`Invalid date and time format "${format}" specified`);
  return { type: 'date_time', offset, length, unix_time: unix, date_time_format: format };
}
