import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, RichBlock } from '@grammyjs/types';
import type { User } from 'telegraf/types';
import { MAX_RICH_BLOCKS, MAX_RICH_CHARACTERS, MAX_RICH_DEPTH, MAX_TABLE_COLUMNS, startBotApi } from './bot-api/index.ts';
import type { BotApi } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

// Rich messages (Bot API 10.1–10.3) as the emulator holds a bot to them: botapi-10.md §1.

let api: BotApi;
let ann: User;
const { ok, fails } = caller(() => api);

beforeEach(async () => {
  api = await startBotApi();
  ann = api.createUser({ first_name: 'Ann' });
  api.sendText({ from: ann, text: 'hi' });
});
afterEach(() => api.close());

const rich = (rich_message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ok<Message>('sendRichMessage', { chat_id: ann.id, rich_message, ...extra });
const refused = (rich_message: Record<string, unknown>, description: string | RegExp) =>
  fails('sendRichMessage', { chat_id: ann.id, rich_message }, 400, description);
const rows = (count: number, columns = 1) => Array.from({ length: count }, (_, row) => `<tr>${'<td>x</td>'.repeat(columns).replace(/x/g, String(row))}</tr>`).join('');

describe('sendRichMessage', () => {
  it('sends html as the blocks a reader gets: heading, paragraph, table, details, footer', async () => {
    const sent = await rich(
      {
        html:
          '<h3>Order <b>No. 1</b></h3><p>Status: made<br/>Total: 5,00 RUB</p>' +
          '<table bordered striped><tr><th>№</th><th>Material</th></tr><tr><td>10</td><td align="right">Pipe &amp; co</td></tr></table>' +
          '<details><summary>Documents (1)</summary><ul><li>No. 7</li></ul></details>' +
          '<footer><i>updated <tg-time unix="1795000000" format="t">14:05</tg-time></i></footer>',
      },
      { reply_markup: { inline_keyboard: [[{ text: '🔄', callback_data: 'r' }]] } },
    );
    expect(sent).not.toHaveProperty('text');
    const blocks = sent.rich_message?.blocks ?? [];
    expect(blocks.map((block) => block.type)).toEqual(['heading', 'paragraph', 'table', 'details', 'footer']);
    expect(blocks[0]).toEqual({ type: 'heading', size: 3, text: ['Order ', { type: 'bold', text: 'No. 1' }] });
    expect(blocks[2]).toMatchObject({
      type: 'table',
      is_bordered: true,
      is_striped: true,
      cells: [
        [{ text: '№', is_header: true, align: 'left', valign: 'top' }, { text: 'Material', is_header: true }],
        [{ text: '10' }, { text: 'Pipe & co', align: 'right' }],
      ],
    });
    expect(blocks[3]).toMatchObject({ type: 'details', summary: 'Documents (1)', blocks: [{ type: 'list', items: [{ label: '•' }] }] });
    expect(blocks[4]).toMatchObject({ type: 'footer', text: { type: 'italic', text: ['updated ', { type: 'date_time', unix_time: 1795000000, date_time_format: 't', text: '14:05' }] } });

    const [message] = api.messagesIn(ann.id);
    expect(message?.rich?.source).toEqual({ html: expect.stringContaining('<h3>') });
    expect(message?.text).toBe('Order No. 1\nStatus: made\nTotal: 5,00 RUB\n№ | Material\n10 | Pipe & co\nDocuments (1)\n• No. 7\nupdated 14:05');
    expect(message?.buttons).toEqual([{ text: '🔄', callback_data: 'r' }]);
  });

  it('takes exactly one of html, markdown and blocks', async () => {
    await refused({}, 'Bad Request: exactly one of the fields "html", "markdown" and "blocks" must be used in a rich message, found none');
    await refused({ html: '<p>a</p>', markdown: 'a' }, /found html, markdown$/);
    await refused({ html: '<p>a</p>', blocks: [{ type: 'paragraph', text: 'a' }] }, /found html, blocks$/);
    const sent = await rich({ blocks: [{ type: 'paragraph', text: ['a', { type: 'bold', text: 'b' }] }] });
    expect(sent.rich_message?.blocks).toEqual([{ type: 'paragraph', text: ['a', { type: 'bold', text: 'b' }] }]);
  });

  it(`holds at most ${MAX_RICH_CHARACTERS} characters, counted as a reader sees them`, async () => {
    const fill = (count: number) => `<p>${'я'.repeat(count - 3)}&amp;<b>ab</b></p>`;
    await rich({ html: fill(MAX_RICH_CHARACTERS) });
    await refused({ html: fill(MAX_RICH_CHARACTERS + 1) }, `Bad Request: rich message is too long: ${MAX_RICH_CHARACTERS + 1} characters of at most ${MAX_RICH_CHARACTERS}`);
  });

  it(`holds at most ${MAX_RICH_BLOCKS} blocks, each table row one`, async () => {
    // The table is one block and each of its rows another.
    await rich({ html: `<table>${rows(MAX_RICH_BLOCKS - 1)}</table>` });
    await refused({ html: `<p>a</p><table>${rows(MAX_RICH_BLOCKS - 1)}</table>` }, `Bad Request: too many blocks in a rich message: ${MAX_RICH_BLOCKS + 1} of at most ${MAX_RICH_BLOCKS}`);
    await refused({ html: `<ul>${'<li>a</li>'.repeat(MAX_RICH_BLOCKS)}</ul>` }, /too many blocks/);
  });

  it(`holds tables of at most ${MAX_TABLE_COLUMNS} columns, a spanning cell counted for its columns`, async () => {
    await rich({ html: `<table>${rows(2, MAX_TABLE_COLUMNS)}</table>` });
    await refused({ html: `<table>${rows(2, MAX_TABLE_COLUMNS + 1)}</table>` }, /too many columns in a rich message table: 21 of at most 20/);
    await refused({ html: `<table><tr><td colspan="${MAX_TABLE_COLUMNS}">a</td><td>b</td></tr></table>` }, /too many columns/);
  });

  it(`nests blocks and formatting at most ${MAX_RICH_DEPTH} levels deep`, async () => {
    const nested = (levels: number) => `${'<blockquote>'.repeat(levels - 1)}<p>a</p>${'</blockquote>'.repeat(levels - 1)}`;
    await rich({ html: nested(MAX_RICH_DEPTH) });
    await refused({ html: nested(MAX_RICH_DEPTH + 1) }, `Bad Request: rich message nesting is too deep: ${MAX_RICH_DEPTH + 1} of at most ${MAX_RICH_DEPTH} levels`);
    await refused({ html: `<p>${'<b>'.repeat(MAX_RICH_DEPTH)}a${'</b>'.repeat(MAX_RICH_DEPTH)}</p>` }, /nesting is too deep/);
  });

  it('refuses what rich HTML does not have, and a table or list out of shape', async () => {
    await refused({ html: '<p><script>x</script></p>' }, `Bad Request: can't parse rich message: unsupported tag "script"`);
    await refused({ html: '<p>a < b</p>' }, /a "<" that starts no tag/);
    await refused({ html: '<p><b>a</p></b>' }, /unmatched end tag/);
    await refused({ html: '<tr><td>a</td></tr>' }, /the tag "tr" outside "table"/);
    await refused({ html: '<p><p>a</p></p>' }, /the block tag "p" inside text/);
    await refused({ html: '<p>&bogus;</p>' }, /unknown entity/);
    await refused({ html: '<p>a<tg-time unix="x">b</tg-time></p>' }, /"tg-time" needs a "unix" time/);
    await refused({ html: '<p><tg-time unix="1" format="tw">b</tg-time></p>' }, /bad date_time format "tw"/);
    await refused({ html: '   ' }, 'Bad Request: rich message is empty');
  });
});

describe('editMessageText with rich_message', () => {
  it('edits a rich message in place; the same content and keyboard again is no change', async () => {
    const sent = await rich({ html: '<p>part 1</p>' });
    const edited = await ok<Message>('editMessageText', { chat_id: ann.id, message_id: sent.message_id, rich_message: { html: '<p>part 2</p>' } });
    expect(edited.rich_message?.blocks).toEqual([{ type: 'paragraph', text: 'part 2' }]);
    expect(api.message(ann.id, sent.message_id)).toMatchObject({ text: 'part 2', edit_count: 1 });
    await fails('editMessageText', { chat_id: ann.id, message_id: sent.message_id, rich_message: { html: '<p>part 2</p>' } }, 400, /message is not modified/);
  });

  it('only on a rich message, and a rich message never with text', async () => {
    const text = await ok<Message>('sendMessage', { chat_id: ann.id, text: 'results' });
    await fails('editMessageText', { chat_id: ann.id, message_id: text.message_id, rich_message: { html: '<p>record</p>' } }, 400, "Bad Request: message can't be edited: rich_message edits only a rich message");
    const sent = await rich({ html: '<p>record</p>' });
    await fails('editMessageText', { chat_id: ann.id, message_id: sent.message_id, text: 'results' }, 400, "Bad Request: message can't be edited: a rich message is edited with rich_message");
    await fails('editMessageText', { chat_id: ann.id, message_id: sent.message_id, text: 'a', rich_message: { html: '<p>b</p>' } }, 400, /only one of text and rich_message/);
  });

  it('a press on a rich message carries it as Message.rich_message', async () => {
    const sent = await rich({ html: '<p>record</p>' }, { reply_markup: { inline_keyboard: [[{ text: '🔄', callback_data: 'r' }]] } });
    api.pressButton({ from: ann, message: sent, data: 'r' });
    const updates = await ok<Array<{ callback_query?: { message: Message } }>>('getUpdates');
    expect(updates.find((update) => update.callback_query)?.callback_query?.message.rich_message?.blocks).toEqual<RichBlock[]>([{ type: 'paragraph', text: 'record' }]);
  });
});

describe('InputRichMessageContent in inline results', () => {
  it('is read as a rich message, its limits included', async () => {
    const id = api.sendInlineQuery({ from: ann, query: 'q' });
    const article = (html: string) => ({ type: 'article', id: 'o:1', title: 'Order', description: 'card', input_message_content: { rich_message: { html } } });
    await fails('answerInlineQuery', { inline_query_id: id, results: [article(`<table>${rows(2, 21)}</table>`)] }, 400, /too many columns/);
    await ok('answerInlineQuery', { inline_query_id: id, results: [article('<table><tr><td>1</td></tr></table>')] });
    expect(api.inlineAnswer(id)?.results).toHaveLength(1);
  });
});
