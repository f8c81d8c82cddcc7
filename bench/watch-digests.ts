import type { Answer, LeanBotApi } from './bot-api.ts';
import { metric, sumMetrics } from './prometheus.ts';
import { cpuMs, rssMb } from './proc.ts';
import type { WatchPortal } from './watch-portal.ts';

// The digest phase of the watch scenario (issue 33): every chat of the scenario asks for its
// daily digest at the same minute (`/digest HH:MM` in the bot's TIME_ZONE), then the bench
// waits for that minute and measures how long the bot takes to send all of them (Telegram's 30
// messages a second bound it), and counts the portal's requests meanwhile against the polls the
// bot made: a digest is made of what the store keeps and must ask the portal nothing.

/** The digests are set for the first whole minute at least this far ahead: time to answer every /digest. */
const LEAD_MS = 90_000;
/** How long the bench waits for the last digest after the minute. */
const WAIT_MS = 10 * 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A deadline raced against: it must not keep the bench alive once the race is won. */
const deadline = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** "09:00" for a moment, in the bot's TIME_ZONE (Europe/Moscow unless set). */
const wallClock = (moment: number, timeZone: string): string =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(moment);

export type DigestPhaseOptions = {
  api: LeanBotApi;
  portal: WatchPortal;
  /** Routes the lean Bot API's answers here for the phase (the scenario's own listener is set aside). */
  listen: (listener: ((answer: Answer) => void) | undefined) => void;
  /** Every replica's /metrics. */
  scrape: () => Promise<string[]>;
  /** Every replica's process id: CPU and memory over the phase. */
  pids: () => number[];
  firstUser: number;
  chats: number;
  timeZone?: string;
  log: (line: string) => void;
};

export type DigestPhaseResult = Awaited<ReturnType<typeof runDigestPhase>>;

export const runDigestPhase = async ({ api, portal, listen, scrape, pids, firstUser, chats, timeZone = 'Europe/Moscow', log }: DigestPhaseOptions) => {
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const dueAt = Math.ceil((Date.now() + LEAD_MS) / 60_000) * 60_000;
  const time = wallClock(dueAt, timeZone);
  let answered = 0;
  /** Per chat: the digest messages received, and when. */
  const received = new Map<number, number[]>();
  let allSet: () => void = () => undefined;
  let allReceived: () => void = () => undefined;
  const set = new Promise<void>((resolve) => (allSet = resolve));
  const all = new Promise<void>((resolve) => (allReceived = resolve));
  listen((answer) => {
    const text = answer.message?.text ?? '';
    if (answer.method !== 'sendMessage') return;
    if (text.startsWith('🗓 Digest every day')) {
      if (++answered === chats) allSet();
    } else if (/^🗓 (<b>)?Digest for/.test(text)) {
      const times = received.get(answer.chatId) ?? [];
      // The bench's own clock (an answer's `at` is the emulator's monotonic one).
      times.push(Date.now());
      received.set(answer.chatId, times);
      if (received.size === chats) allReceived();
    }
  });
  try {
    log(`  digests: /digest ${time} in each of ${chats} chats (due ${new Date(dueAt).toISOString().slice(11, 19)} UTC)…`);
    const setupStart = Date.now();
    for (let chat = 0; chat < chats; chat++) api.say(firstUser + chat, `/digest ${time}`);
    await Promise.race([set, deadline(dueAt - Date.now())]);
    if (answered < chats) throw new Error(`only ${answered} of ${chats} /digest answered before the minute they asked for`);
    const setupMs = Date.now() - setupStart;
    // Just before the minute: what the portal and the polls have counted so far.
    await sleep(Math.max(0, dueAt - Date.now() - 1_000));
    const before = sumMetrics(await scrape());
    const requestsBefore = portal.state.requests;
    const cpuBefore = sum(pids().map(cpuMs));
    const rssBefore = sum(pids().map(rssMb));
    const from = Date.now();
    await Promise.race([all, deadline(dueAt + WAIT_MS - Date.now())]);
    const last = Math.max(...[...received.values()].flat());
    // The rounds under way when the last digest went: the portal's counts are per second.
    await sleep(2_000);
    const to = Date.now();
    const cpu = sum(pids().map(cpuMs)) - cpuBefore;
    const rssAfter = sum(pids().map(rssMb));
    const after = sumMetrics(await scrape());
    const requests = portal.state.requests - requestsBefore;
    // Each watched query is one order: one page, one request per poll.
    const polls = metric(after, 'watch_polls_total') - metric(before, 'watch_polls_total');
    const messages = [...received.values()].reduce((sum, times) => sum + times.length, 0);
    const firsts = [...received.values()].map((times) => Math.min(...times));
    return {
      chats,
      time,
      setupMs,
      received: received.size,
      messages,
      firstS: (Math.min(...firsts) - dueAt) / 1000,
      allS: (last - dueAt) / 1000,
      window: { seconds: (to - from) / 1000, requests, polls, extra: requests - polls },
      prepared: metric(after, 'digests_total{outcome="prepared"}') - metric(before, 'digests_total{outcome="prepared"}'),
      /** The bots' CPU over the phase's window: % of one core, and ms per digest (its polls included). */
      cpu: { percent: (100 * cpu) / (to - from), msPerDigest: cpu / Math.max(1, received.size) },
      rssMb: { before: rssBefore, after: rssAfter },
    };
  } finally {
    listen(undefined);
  }
};
