// The `button` of answerInlineQuery (InlineQueryResultsButton), or the legacy switch_pm_text and
// switch_pm_parameter: parsed as the Bot API server parses it, then checked as tdlib checks it.
import type { InlineQueryResultsButton } from 'telegraf/types';
import { badRequest } from './errors.ts';
import type { BotApiError } from './errors.ts';
import { JsonFields } from './json-fields.ts';
import { isObject } from './method-context.ts';
import type { Params } from './params.ts';

export const MAX_START_PARAMETER_LENGTH = 64;

const buttonError = (detail: string): BotApiError => badRequest(`can't parse inline query results button: ${detail}`);

export function readResultsButton(params: Params): InlineQueryResultsButton | undefined {
  const raw = params.json('button', 'inline query results button');
  if (raw === undefined) {
    const text = params.string('switch_pm_text');
    return text === undefined ? undefined : { text, start_parameter: params.string('switch_pm_parameter') ?? '' };
  }
  if (!isObject(raw)) throw buttonError('InlineQueryResultsButton must be an Object');
  const fields = new JsonFields(raw, buttonError);
  const text = fields.requiredString('text');
  if (fields.has('start_parameter')) return { text, start_parameter: fields.requiredString('start_parameter') };
  if (fields.has('web_app')) {
    const url = new JsonFields(fields.requiredObject('web_app'), buttonError).requiredString('url');
    return { text, web_app: { url } };
  }
  throw buttonError('InlineQueryResultsButton must have exactly one optional field');
}

/** tdlib's checks of the button before it asks Telegram. */
export function checkResultsButton(button: InlineQueryResultsButton): void {
  if ('start_parameter' in button) {
    const parameter = button.start_parameter;
    if (parameter === '') throw badRequest("can't use empty start_parameter");
    if (parameter.length > MAX_START_PARAMETER_LENGTH) throw badRequest('too long start_parameter specified');
    if (!/^[A-Za-z0-9_-]+$/.test(parameter)) throw badRequest('unallowed characters in start_parameter are used');
    return;
  }
  const url = button.web_app.url;
  if (/^tg:\/\/user\?id=/i.test(url)) throw badRequest("link to a user can't be used in the Web App button");
  if (!URL.canParse(url) || new URL(url).protocol !== 'https:') {
    throw badRequest(`inline query button Web App URL '${url}' is invalid: Only HTTPS links are allowed`);
  }
}
