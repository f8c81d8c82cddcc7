import { describe, expect, it } from 'vitest';
import type { InlineKeyboardButton } from '../../../src/telegram/telegraf/core.ts';
import { createTranslator } from '../../../src/i18n.ts';
import { dropOptionButtons, optionPairs, optionSwitches, refreshOptionButtons, snoozeButtons } from '../../../src/bot/keyboards/watch-options.ts';

const ru = createTranslator('ru');
const en = createTranslator('en');
const shown = (keyboard: InlineKeyboardButton[][]) => keyboard.map((row) => row.map((button) => `${button.text} ${'callback_data' in button ? button.callback_data : ''}`));
const open = { text: 'Заказ 0007300100', callback_data: 'x:o0=0007300100' };
const stop = { text: '🔕 Не следить', callback_data: 'u:5' };

describe("a watch's option buttons", () => {
  it('the confirmation’s pairs mark the current choice', () => {
    expect(shown(optionPairs({ id: 5 }, ru))).toEqual([
      ['✓ Все изменения dm:5:a', 'Только статус dm:5:s'],
      ['✓ Сразу dd:5:i', 'Только в сводке dd:5:d'],
    ]);
    expect(shown(optionPairs({ id: 5, statusOnly: true, digestOnly: true }, en))).toEqual([
      ['All changes dm:5:a', '✓ Status only dm:5:s'],
      ['Instantly dd:5:i', '✓ In the digest only dd:5:d'],
    ]);
  });

  it('a notification’s switches offer the other choice; ⏸ ⏸ or ▶', () => {
    expect(shown([optionSwitches({ id: 5 }, en)])).toEqual([['Status only dm:5:s', 'In the digest only dd:5:d']]);
    expect(shown([optionSwitches({ id: 5, statusOnly: true, digestOnly: true }, en)])).toEqual([['All changes dm:5:a', 'Instantly dd:5:i']]);
    expect(shown([snoozeButtons({ id: 5 }, ru)])).toEqual([['⏸ 1 день ds:5:d', '⏸ 1 неделя ds:5:w']]);
    expect(shown([snoozeButtons({ id: 5, snoozedUntil: 1 }, ru)])).toEqual([['▶ Возобновить ds:5:r']]);
  });

  it('after a press, each button shows the watch as it is, in its own style; others stay', () => {
    const notification = [[open], snoozeButtons({ id: 5 }, ru), optionSwitches({ id: 5 }, ru), [stop]];
    expect(shown(refreshOptionButtons(notification, { id: 5, statusOnly: true, snoozedUntil: 9 }, ru))).toEqual([
      ['Заказ 0007300100 x:o0=0007300100'],
      ['▶ Возобновить ds:5:r'],
      ['Все изменения dm:5:a', 'Только в сводке dd:5:d'],
      ['🔕 Не следить u:5'],
    ]);
    const snoozed = refreshOptionButtons(notification, { id: 5, snoozedUntil: 9 }, ru);
    expect(shown(refreshOptionButtons(snoozed, { id: 5 }, ru))).toEqual(shown(notification));
    const confirmation = optionPairs({ id: 5 }, ru);
    expect(refreshOptionButtons(confirmation, { id: 5, digestOnly: true }, ru)).toEqual(optionPairs({ id: 5, digestOnly: true }, ru));
    // Another watch's buttons are not touched.
    expect(refreshOptionButtons(optionPairs({ id: 6 }, ru), { id: 5, statusOnly: true }, ru)).toEqual(optionPairs({ id: 6 }, ru));
  });

  it('a stopped watch loses its option buttons', () => {
    expect(shown(dropOptionButtons([[open], snoozeButtons({ id: 5 }, ru), optionSwitches({ id: 5 }, ru)], 5))).toEqual([['Заказ 0007300100 x:o0=0007300100']]);
  });
});
