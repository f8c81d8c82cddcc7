import { request } from 'undici';

// The floor of the cost per update: a framework-free bot, undici only, that does the least HTTP
// work a lookup needs. It long-polls getUpdates like Telegraf (a batch, all of it handled, then the
// next), and for each update makes one portal GET (the query the bot would make for that lookup,
// first page of 5; a ◀ ▶ press asks the page its button names) and one sendMessage with the
// record count, with ◀ ▶ buttons under a filter keyword's answer as the bare bot has.
// Run with BOT_TOKEN, TELEGRAM_API_ROOT, PORTAL_URL and PORTAL_TOKEN.

const env = (name: string) => process.env[name] ?? '';
const api = `${env('TELEGRAM_API_ROOT')}/bot${env('BOT_TOKEN')}/`;
const portal = env('PORTAL_URL');
const authorization = `Bearer ${env('PORTAL_TOKEN')}`;
const LIMIT = 5;

type Update = { update_id: number; message?: { chat: { id: number }; text?: string }; callback_query?: { data?: string; message?: { chat: { id: number } } } };
type Lookup = { path: string; filter: string; value: string; offset: number };

const call = async (method: string, params: unknown): Promise<unknown> => {
  const response = await request(api + method, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  const body = (await response.body.json()) as { ok: boolean; result?: unknown; description?: string };
  if (!body.ok) throw new Error(`${method}: ${body.description}`);
  return body.result;
};

const KEYWORDS: Record<string, Record<string, string>> = {
  order: { status: 'STATUS', material: 'POSITION[MATERIAL_NAME]', date: 'DATE_ORDER', crm: 'CRM_ID', code: 'POSITION[MATERIAL_SAP_ID]' },
  spec: { status: 'STATUS', material: 'POSITION[MATERIAL_NAME]', date: 'ORDER[DATE_ORDER]', type: 'STATUS_TYPE', number: 'SPECIFICATION_NUMBER', code: 'POSITION[MATERIAL_SAP_ID]' },
};

/** `/order status production` → the portal query the bot asks for it; a bare value is the first filter. */
const parse = (text: string): Lookup & { keyword: boolean } => {
  const [, command = 'order', first = '', rest = ''] = /^\/(order|spec)\s+(\S+)\s*(.*)$/.exec(text) ?? [];
  const filter = KEYWORDS[command]?.[first];
  const path = command === 'order' ? '/api/lk/order' : '/api/lk/specification';
  const raw = filter ? rest : first;
  const value = filter?.includes('DATE') ? raw.split('.').reverse().join('-') : raw;
  return { path, filter: filter ?? (command === 'order' ? 'SAP_ID' : 'CONTRACT_NUMBER'), value, offset: 0, keyword: filter !== undefined };
};

const ask = async ({ path, filter, value, offset }: Lookup): Promise<number> => {
  const query = new URLSearchParams([[filter, value], ['limit', String(LIMIT)], ['offset', String(offset)]]);
  const response = await request(`${portal}${path}?${query}`, { headers: { accept: 'application/json', authorization } });
  const body = (await response.body.json()) as { data?: { total?: number } };
  return body.data?.total ?? 0;
};

/** A button carries its page: `path|filter|value|offset`, short enough for the 64 bytes here. */
const keyboard = (lookup: Lookup) => ({
  inline_keyboard: [
    [
      { text: '◀', callback_data: [lookup.path, lookup.filter, lookup.value, Math.max(0, lookup.offset - LIMIT)].join('|') },
      { text: '▶', callback_data: [lookup.path, lookup.filter, lookup.value, lookup.offset + LIMIT].join('|') },
    ],
  ],
});

const handle = async (update: Update): Promise<void> => {
  const chatId = update.message?.chat.id ?? update.callback_query?.message?.chat.id;
  if (chatId === undefined) return;
  let lookup: Lookup;
  let buttons: boolean;
  if (update.callback_query) {
    const [path = '', filter = '', value = '', offset = '0'] = (update.callback_query.data ?? '').split('|');
    lookup = { path, filter, value, offset: Number(offset) };
    buttons = true;
  } else {
    const parsed = parse(update.message?.text ?? '');
    lookup = parsed;
    buttons = parsed.keyword;
  }
  const total = await ask(lookup);
  await call('sendMessage', { chat_id: chatId, text: `${total} records, from ${lookup.offset + 1}`, ...(buttons && { reply_markup: keyboard(lookup) }) });
};

let running = true;
process.once('SIGTERM', () => {
  running = false;
  process.exit(0);
});

let offset = 0;
while (running) {
  const updates = (await call('getUpdates', { offset, limit: 100, timeout: 30 })) as Update[];
  if (updates.length > 0) offset = (updates.at(-1)?.update_id ?? 0) + 1;
  await Promise.all(updates.map((update) => handle(update).catch((error: unknown) => process.stderr.write(`${String(error)}\n`))));
}
