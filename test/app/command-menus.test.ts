import { Telegram } from '../../src/telegram/telegraf/core.ts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { setCommandMenusOnce } from '../../src/app/command-menus.ts';
import type { Store } from '../../src/store/store.ts';
import { startBotApi, type BotApi } from '../support/bot-api/index.ts';
import { postgresBackend } from '../store/store-backends.ts';

// Replicas starting together set the command menus once, and a restart sets nothing.

let api: BotApi;
const stores: Store[] = [];
beforeEach(async () => {
  api = await startBotApi();
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await api.close();
});
const backend = postgresBackend();

it('sets the menus once for three replicas starting together, and not again at a restart', async () => {
  const place = await backend.place();
  const replicas = await Promise.all([1, 2, 3].map(() => place.open()));
  stores.push(...replicas);
  const results = await Promise.all(replicas.map((store) => setCommandMenusOnce(new Telegram(api.token, { apiRoot: api.apiRoot }), 'ru', store.coordination)));
  expect(results.filter(Boolean)).toHaveLength(1);
  // Private and group chats, each in Russian, English and the default.
  expect(api.callsTo('setMyCommands')).toHaveLength(6);

  const restarted = await place.open();
  stores.push(restarted);
  expect(await setCommandMenusOnce(new Telegram(api.token, { apiRoot: api.apiRoot }), 'ru', restarted.coordination)).toBe(false);
  // Another default language is another menu: set again.
  expect(await setCommandMenusOnce(new Telegram(api.token, { apiRoot: api.apiRoot }), 'en', restarted.coordination)).toBe(true);
  expect(api.callsTo('setMyCommands')).toHaveLength(12);
});
