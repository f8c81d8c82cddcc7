import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import type { Watch } from '../../store/watch-store.ts';
import { packCallback, unpackCallback, type CallbackAction } from '../callback-data/codec.ts';

// A watch's options as buttons: *all changes* / *status only*, *instantly* / *in the digest only*
// (a pair with ✓ on the confirmation and in a watch's settings; one button that switches on a
// notification), and ⏸ 1 day / ⏸ 1 week, or ▶ while it is snoozed.

type Keyboard = InlineKeyboardButton[][];
type Options = Pick<Watch, 'id' | 'statusOnly' | 'digestOnly' | 'snoozedUntil'>;

const button = (text: string, action: CallbackAction): InlineKeyboardButton => ({ text, callback_data: packCallback(action) });

const modeButton = (watch: Options, statusOnly: boolean, t: Translate, marked: boolean): InlineKeyboardButton =>
  button(`${marked && statusOnly === (watch.statusOnly === true) ? '✓ ' : ''}${t(statusOnly ? 'snooze.button.statusOnly' : 'snooze.button.allChanges')}`, {
    type: 'watchMode',
    watchId: watch.id,
    statusOnly,
  });

const deliveryButton = (watch: Options, digestOnly: boolean, t: Translate, marked: boolean): InlineKeyboardButton =>
  button(`${marked && digestOnly === (watch.digestOnly === true) ? '✓ ' : ''}${t(digestOnly ? 'snooze.button.digestOnly' : 'snooze.button.instantly')}`, {
    type: 'watchDelivery',
    watchId: watch.id,
    digestOnly,
  });

/** ⏸ 1 day and ⏸ 1 week, or ▶ while snoozed. */
export const snoozeButtons = (watch: Options, t: Translate): InlineKeyboardButton[] =>
  watch.snoozedUntil === undefined
    ? [button(t('snooze.button.day'), { type: 'snooze', watchId: watch.id, span: 'day' }), button(t('snooze.button.week'), { type: 'snooze', watchId: watch.id, span: 'week' })]
    : [button(t('snooze.button.resume'), { type: 'snooze', watchId: watch.id, span: 'resume' })];

/** The two pairs, each with ✓ at the current choice: the confirmation of /watch and a watch's settings. */
export const optionPairs = (watch: Options, t: Translate): Keyboard => [
  [modeButton(watch, false, t, true), modeButton(watch, true, t, true)],
  [deliveryButton(watch, false, t, true), deliveryButton(watch, true, t, true)],
];

/** One button per option that switches to the other choice: under a notification. */
export const optionSwitches = (watch: Options, t: Translate): InlineKeyboardButton[] => [
  modeButton(watch, watch.statusOnly !== true, t, false),
  deliveryButton(watch, watch.digestOnly !== true, t, false),
];

const dataOf = (item: InlineKeyboardButton): string | undefined => ('callback_data' in item ? item.callback_data : undefined);

/**
 * The keyboard with this watch's option buttons showing its options now, in the style they have:
 * a pair keeps both buttons (the ✓ moves), a single switch turns to the other choice, ⏸ ⏸ and ▶
 * take each other's place. Other buttons stay as they are.
 */
export const refreshOptionButtons = (keyboard: Keyboard, watch: Options, t: Translate): Keyboard => {
  const actions = keyboard.flat().map((item) => unpackCallback(dataOf(item)));
  const ofWatch = (type: string) => actions.filter((action) => action?.type === type && 'watchId' in action && action.watchId === watch.id).length;
  const pairedModes = ofWatch('watchMode') > 1;
  const pairedDeliveries = ofWatch('watchDelivery') > 1;
  return keyboard
    .map((row) =>
      row.flatMap((item): InlineKeyboardButton[] => {
        const action = unpackCallback(dataOf(item));
        if (action === undefined || !('watchId' in action) || action.watchId !== watch.id) return [item];
        switch (action.type) {
          case 'watchMode':
            return [pairedModes ? modeButton(watch, action.statusOnly, t, true) : modeButton(watch, watch.statusOnly !== true, t, false)];
          case 'watchDelivery':
            return [pairedDeliveries ? deliveryButton(watch, action.digestOnly, t, true) : deliveryButton(watch, watch.digestOnly !== true, t, false)];
          case 'snooze':
            // The first of ⏸ ⏸ (or the ▶) stands for the row: the rest of the old row goes.
            return action.span === 'week' ? [] : snoozeButtons(watch, t);
          default:
            return [item];
        }
      }),
    )
    .filter((row) => row.length > 0);
};

/** The keyboard without this watch's option and snooze buttons (the watch was stopped). */
export const dropOptionButtons = (keyboard: Keyboard, watchId: number): Keyboard =>
  keyboard
    .map((row) =>
      row.filter((item) => {
        const action = unpackCallback(dataOf(item));
        return !(action !== undefined && (action.type === 'watchMode' || action.type === 'watchDelivery' || action.type === 'snooze') && action.watchId === watchId);
      }),
    )
    .filter((row) => row.length > 0);
