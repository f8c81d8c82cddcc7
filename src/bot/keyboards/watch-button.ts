import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import { packCallback, unpackCallback, type CallbackAction } from '../callback-data/codec.ts';

/** Whether the chat watches what a message shows: the watch's id when it does. */
export type WatchState = { watchId?: number };

type StartAction = Extract<CallbackAction, { type: 'watch' | 'watchRecord' }>;

/** 🔔: watch what the message shows; the message's main action (blue, Bot API 9.4). */
export const startButton = (start: StartAction, t: Translate): InlineKeyboardButton => ({ text: t('watch.button.watch'), callback_data: packCallback(start), style: 'primary' });

/** 🔕: stop that watch (red). */
export const stopButton = (watchId: number, t: Translate): InlineKeyboardButton => ({
  text: t('watch.button.stop'),
  callback_data: packCallback({ type: 'unwatch', watchId }),
  style: 'danger',
});

/** 🔕 when the chat watches it, else 🔔 with `start`, the action that watches it. */
export const renderWatchButton = (state: WatchState, start: StartAction, t: Translate): InlineKeyboardButton =>
  state.watchId === undefined ? startButton(start, t) : stopButton(state.watchId, t);

type Keyboard = InlineKeyboardButton[][];
const dataOf = (button: InlineKeyboardButton): string | undefined => ('callback_data' in button ? button.callback_data : undefined);

/** The keyboard with the button carrying `data` replaced (🔔 ⇄ 🔕 in place, the rest untouched). */
export const replaceButton = (keyboard: Keyboard, data: string, replacement: InlineKeyboardButton): Keyboard =>
  keyboard.map((row) => row.map((button) => (dataOf(button) === data ? replacement : button)));

/**
 * The 🔔 that a 🔕 of a results page or a record turns back into. The 🔕 carries only the watch's
 * id, so the page or the record is read from the message's own Refresh button; undefined for a
 * message with none (the /watch list).
 */
export const watchActionOf = (keyboard: Keyboard): StartAction | undefined => {
  for (const button of keyboard.flat()) {
    const action = unpackCallback(dataOf(button));
    if (action?.type === 'page' && action.refresh) return { type: 'watch', ref: action.ref };
    if (action?.type === 'record' && action.refresh) {
      const { ref, limit, offset, index, id } = action;
      return { type: 'watchRecord', ref, limit, offset, index, id };
    }
  }
  return undefined;
};

/** The keyboard without the button carrying `data` (and without a row it leaves empty). */
export const dropButton = (keyboard: Keyboard, data: string): Keyboard =>
  keyboard.map((row) => row.filter((button) => dataOf(button) !== data)).filter((row) => row.length > 0);

/** A keyboard of the /watch list: nothing but 🔕, ⚙ and its pager. */
export const isWatchListKeyboard = (keyboard: Keyboard): boolean =>
  keyboard.flat().every((button) => ['unwatch', 'watchSettings', 'watchList', 'noop'].includes(unpackCallback(dataOf(button))?.type ?? ''));

/** A keyboard of one watch's settings (opened by ⚙ from the list): the list's offset its ◀ goes back to. */
export const watchSettingsOffsetOf = (keyboard: Keyboard): number | undefined => {
  const actions = keyboard.flat().map((button) => unpackCallback(dataOf(button)));
  if (!actions.some((action) => action?.type === 'watchMode')) return undefined;
  const back = actions.find((action) => action?.type === 'watchList');
  return back?.type === 'watchList' ? back.offset : undefined;
};

/** The offset of the /watch list page a keyboard shows, from its pager row: ◀ before the indicator, ▶ after it. */
export const watchListOffsetOf = (keyboard: Keyboard, pageSize: number): number => {
  for (const row of keyboard) {
    const actions = row.map((button) => unpackCallback(dataOf(button)));
    const indicator = actions.findIndex((action) => action?.type === 'noop');
    const step = actions.findIndex((action) => action?.type === 'watchList');
    const action = actions[step];
    if (indicator < 0 || action?.type !== 'watchList') continue;
    return step < indicator ? action.offset + pageSize : Math.max(0, action.offset - pageSize);
  }
  return 0;
};
