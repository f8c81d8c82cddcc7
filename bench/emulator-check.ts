import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBotApi } from '../test/support/bot-api/index.ts';
import { startLeanBotApi } from './bot-api.ts';
import { cpuMs, start } from './proc.ts';

// node bench/emulator-check.ts: is the strict test emulator (test/support/bot-api) fast enough to
// drive the benchmark? The bare Telegraf bot answers a burst of messages through each emulator;
// whichever side saturates first shows in the rate and in the CPU time of both processes.

const MESSAGES = Number(process.argv[2] ?? 4000);
const USERS = 200;
const root = fileURLToPath(new URL('..', import.meta.url));

const measure = async (name: string, api: { apiRoot: string; token: string }, say: (user: number, text: string) => void, answered: () => number) => {
  const bot = start(join(root, 'bench/bare-bot.ts'), { BOT_TOKEN: api.token, TELEGRAM_API_ROOT: api.apiRoot }, join(tmpdir(), 'bench-emulator-check.log'));
  say(1, 'warm-up');
  while (answered() < 1) await new Promise((resolve) => setTimeout(resolve, 10));
  const base = answered();
  const cpuBot = cpuMs(bot.process.pid!);
  const cpuSelf = process.cpuUsage();
  const started = performance.now();
  // Open loop in waves of one message per user, so the emulator is never waiting on the load.
  for (let sent = 0; sent < MESSAGES; sent += USERS) {
    for (let user = 0; user < USERS; user++) say(1000 + user, `/x ${sent}`);
    while (answered() - base < sent + USERS) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const seconds = (performance.now() - started) / 1000;
  const self = process.cpuUsage(cpuSelf);
  process.stdout.write(
    `${name}: ${(MESSAGES / seconds).toFixed(0)} messages/s; CPU: emulator ${((self.user + self.system) / 1000 / seconds / 10).toFixed(0)}%, bare bot ${((cpuMs(bot.process.pid!) - cpuBot) / seconds / 10).toFixed(0)}%\n`,
  );
  await bot.stop();
};

const strict = await startBotApi({ waitTimeoutMs: 60_000 });
const users = new Map<number, ReturnType<typeof strict.createUser>>();
await measure(
  'strict test emulator (test/support/bot-api)',
  strict,
  (id, text) => {
    if (!users.has(id)) users.set(id, strict.createUser({ id, first_name: `U${id}` }));
    strict.sendText({ from: users.get(id)!, text });
  },
  () => strict.callsTo('sendMessage').length,
);
await strict.close();

const lean = await startLeanBotApi();
let leanAnswers = 0;
lean.onAnswer(() => leanAnswers++);
await measure('lean bench emulator (bench/bot-api.ts)', lean, (id, text) => lean.say(id, text), () => leanAnswers);
await lean.close();
