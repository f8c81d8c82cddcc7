import { Telegraf } from 'telegraf';

// The floor: a bare Telegraf bot with its own polling (bot.launch()) that answers every message
// with a fixed text and every button press by editing in a fixed text, with ◀ ▶ buttons so the
// same load can page. Run with BOT_TOKEN and TELEGRAM_API_ROOT.

const keyboard = { inline_keyboard: [[{ text: '◀', callback_data: 'p' }, { text: '▶', callback_data: 'n' }]] };
const bot = new Telegraf(process.env.BOT_TOKEN ?? '', { telegram: { apiRoot: process.env.TELEGRAM_API_ROOT ?? '' } });
// Like the bot, no ◀ ▶ under a lookup by number (of the demo data, mostly one record), only under
// a filter keyword's, so the load's mix of lookups and presses is about alike for both.
const single = /^\/(order|spec) \S+$/;
bot.on('message', (ctx) => ctx.reply('fixed answer', 'text' in ctx.message && single.test(ctx.message.text) ? {} : { reply_markup: keyboard }));
// Each page's text differs from the last (a count), as the bot's pages do: an edit to the same
// text is refused with "message is not modified", which would end this bot.
let pages = 0;
bot.on('callback_query', async (ctx) => {
  await ctx.editMessageText(`fixed page ${++pages}`, { reply_markup: keyboard });
  await ctx.answerCbQuery();
});
process.once('SIGTERM', () => {
  bot.stop('SIGTERM');
  process.exit(0);
});
await bot.launch();
