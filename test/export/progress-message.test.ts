import { pino } from 'pino';
import { Telegram } from '../../src/telegram/telegraf/core.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgressMessage } from '../../src/export/progress-message.ts';
import { startBotApi, type BotApi } from '../support/bot-api/index.ts';

const view = (text: string) => ({ text, keyboard: [] });

let api: BotApi;
let telegram: Telegram;
beforeAll(async () => {
  api = await startBotApi();
  telegram = new Telegram(api.token, { apiRoot: api.apiRoot });
});
afterAll(() => api.close());

/** A user who wrote to the bot, and the bot's first message to them, to be the progress message. */
const started = async () => {
  const user = api.createUser();
  api.sendText({ from: user, text: '/export order status production' });
  const message = await telegram.sendMessage(user.id, 'Exporting…');
  const clock = { ms: 0 };
  const progress = createProgressMessage({ telegram, chatId: user.id, messageId: message.message_id, logger: pino({ level: 'silent' }), clock: () => clock.ms });
  return { user, message, clock, progress };
};

describe('the progress message', () => {
  it('never holds the caller on a slow edit: a count returns at once, and none is asked while one is on its way', async () => {
    const { user, message, clock, progress } = await started();
    clock.ms = 2_000;
    const before = performance.now();
    expect(progress.tick(view('Exporting: 20 of 123'))).toBeUndefined();
    clock.ms = 4_500;
    progress.tick(view('Exporting: 40 of 123'));
    expect(performance.now() - before).toBeLessThan(50);
    await progress.settled();
    expect(api.message(user.id, message.message_id)).toMatchObject({ text: 'Exporting: 20 of 123', edit_count: 1 });
  });

  it('shows a count at most every two seconds, a change of state at once', async () => {
    const { user, message, clock, progress } = await started();
    progress.tick(view('Exporting: 20 of 123'));
    clock.ms = 1_999;
    progress.tick(view('Exporting: 40 of 123'));
    expect(api.message(user.id, message.message_id)?.text).toBe('Exporting…');
    clock.ms = 2_000;
    progress.tick(view('Exporting: 60 of 123'));
    clock.ms = 3_000;
    progress.tick(view('Exporting: 80 of 123'));
    await progress.settled();
    expect(api.message(user.id, message.message_id)).toMatchObject({ text: 'Exporting: 60 of 123', edit_count: 1 });
    await progress.show(view('Writing the Excel file…'));
    expect(api.message(user.id, message.message_id)).toMatchObject({ text: 'Writing the Excel file…', edit_count: 2 });
    await progress.remove();
    expect(api.message(user.id, message.message_id)?.deleted).toBe(true);
  });

  it('keeps the order of edits made without waiting', async () => {
    const { user, message, progress } = await started();
    void progress.show(view('Waiting in line: number 2'));
    void progress.show(view('Waiting in line: number 1'));
    await progress.show(view('Exporting…'));
    expect(api.callsTo('editMessageText', { chatId: user.id }).map((call) => call.params.text)).toEqual([
      'Waiting in line: number 2',
      'Waiting in line: number 1',
      'Exporting…',
    ]);
    expect(api.message(user.id, message.message_id)?.text).toBe('Exporting…');
  });

  it('does not fail the export when the progress message cannot be deleted: the file is there', async () => {
    const { progress } = await started();
    api.failNext('deleteMessage', { error_code: 502 });
    await expect(progress.remove()).resolves.toBeUndefined();
  });

  it('leaves a message the user deleted alone, and says so', async () => {
    const { user, message, progress } = await started();
    api.deleteMessage({ from: user, message: { chat_id: user.id, message_id: message.message_id } });
    await progress.show(view('Writing the Excel file…'));
    expect(progress.gone()).toBe(true);
    await progress.remove();
    expect(api.callsTo('deleteMessage', { chatId: user.id })).toEqual([]);
    expect(api.failedCalls().filter((call) => call.method !== 'editMessageText')).toEqual([]);
  });
});
