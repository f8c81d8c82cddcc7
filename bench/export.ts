import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sendJson } from '../src/http/respond.ts';
import { startBotApi } from '../test/support/bot-api/index.ts';
import { botEnv } from './bot-env.ts';
import { PORTAL_TOKEN, startDelayedServer } from './portal.ts';
import { machine, nodeFlags, rssMb, start, botScript } from './proc.ts';
import { writeMarkedSection, type Markers } from './sections.ts';

// The export scenario (issue 13): the bot as production starts it (dist/main.js built from src/, the flags of
// `npm start`, EXPORT_MAX_RECORDS at its default of 1000) exports 1000 orders with 60 positions
// each, asked for with /export, to the strict Bot API emulator, which takes the upload as Telegram
// does. A synthetic portal serves the orders (any order query finds the same 1000) with an
// optional delay per page. Each run asks another value, so the lookup cache never answers.
// The time is from the command to the document's arrival; memory is the bot's resident set
// (idle, the most sampled during each run, and the kernel's high-water mark).

export const EXPORT_MARKERS: Markers = { begin: '<!-- export bench: written by `npm run bench -- --export`, kept by the other runs -->', end: '<!-- /export bench -->' };

const SAMPLE_MS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stderr.write(`${line}\n`);

const order = (index: number, positions: number) => ({
  SAP_ID: String(7_000_000 + index).padStart(10, '0'),
  CRM_ID: `CRM-2026-${String(index).padStart(6, '0')}`,
  DATE_ORDER: '2026-03-15 00:00:00',
  STATUS: 'production',
  STATUS_TEXT: 'Производство',
  PREPAYMENT: 125_000.5,
  POSITION_SUM: 1_250_000.1 + 0.2, // with a floating-point tail, as the portal sends
  POSITION_METERS: 1200,
  POSITION_PIECES: 100,
  POSITION_WEIGHT_TONN: 120.456,
  POSITION: Array.from({ length: positions }, (_, n) => ({
    ID: index * 100 + n,
    QUANTITY: 12.345 + n,
    MEASURE: n % 2 === 0 ? 'TO' : 'M',
    PRICE: 84_500.15 + n,
    CURRENCY: 'RUB',
    MATERIAL_SAP_ID: `0000000000100${String(12_345 + n).padStart(5, '0')}`,
    MATERIAL_NAME: `Труба 530х8 ст.17Г1С, позиция ${n + 1}`,
    ORDER_POSITION_SAP_ID: String((n + 1) * 10).padStart(6, '0'),
  })),
});

/** Every order query finds the same `orders` orders; `state.delayMs` delays each page. */
const startExportPortal = (orders: number, positions: number) => {
  const records = Array.from({ length: orders }, (_, index) => order(index, positions));
  return startDelayedServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://portal');
    if (req.headers.authorization !== `Bearer ${PORTAL_TOKEN}`) return sendJson(res, 401, { success: false, error_code: 'UNAUTHORIZED', data: null });
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const result = url.pathname === '/api/lk/order' ? records.slice(offset, offset + limit) : [];
    sendJson(res, 200, { success: true, error_code: null, data: { result, total: url.pathname === '/api/lk/order' ? orders : 0, limit, offset } });
  });
};

/** The kernel's record of the most resident memory the process ever had. */
const peakRssMb = (pid: number): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/** The bot's own account of a run (its audit line): fetching, writing the file, all of it until the file was sent. */
type Audit = { fetchMs: number; writeMs: number; ms: number };

/** One run: `parallel` users sending /export at once; the time is until the last file came. */
export type ExportRun = {
  delayMs: number;
  parallel: number;
  seconds: number;
  peakRssMb: number;
  bytes: number;
  orderRows: number;
  positionRows: number;
  portalRequests: number;
  edits: number;
  audits: Audit[];
};

const audits = (logFile: string): Audit[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"msg":"export"'))
    .map((line) => JSON.parse(line) as Audit);

export type ExportBenchResult = { orders: number; positions: number; idleRssMb: number; highWaterMb: number; runs: ExportRun[] };

export type ExportScenario = { delayMs: number; parallel: number };

export const runExportBench = async ({ orders, positions, scenarios, runs, root }: { orders: number; positions: number; scenarios: ExportScenario[]; runs: number; root: string }) => {
  const temp = mkdtempSync(join(tmpdir(), 'bot-bench-export-'));
  const portal = await startExportPortal(orders, positions);
  const api = await startBotApi({ waitTimeoutMs: 300_000 });
  const logFile = join(temp, 'export-bot.log');
  const env = { ...botEnv(api, portal.url, join(temp, 'data')), LOG_LEVEL: 'info' };
  const child = start(join(root, botScript()), env, logFile);
  const pid = child.process.pid!;
  // A bot that dies (out of memory, say) ends the run with its log, not a read of its gone /proc entry.
  const alive = () => child.process.exitCode === null && child.process.signalCode === null;
  const died = () => new Error(`the bot exited during the export benchmark:\n${child.stderr().slice(-3_000)}`);
  const exited = new Promise<never>((_, reject) => child.process.once('exit', () => reject(died())));
  exited.catch(() => undefined);
  const results: ExportRun[] = [];
  try {
    await api.waitForPolling({ timeoutMs: 30_000 });
    await sleep(1_000);
    const idleRssMb = rssMb(pid);
    let value = 0;
    for (const { delayMs, parallel } of scenarios) {
      portal.state.delayMs = delayMs;
      for (let run = 0; run < runs; run++) {
        const users = Array.from({ length: parallel }, () => api.createUser({ language_code: 'ru' }));
        const requestsBefore = portal.state.requests;
        const auditsBefore = audits(logFile).length;
        if (!alive()) throw died();
        let peak = rssMb(pid);
        const started = performance.now();
        for (const user of users) api.sendText({ from: user, text: `/export order status bench-${(value += 1)}` });
        const sampler = setInterval(() => {
          if (alive()) peak = Math.max(peak, rssMb(pid));
        }, SAMPLE_MS);
        let documents: Awaited<ReturnType<typeof api.documentsIn>>;
        try {
          documents = await Promise.race([
            api.waitFor(() => users.every((user) => api.documentsIn(user.id).length > 0) && users.map((user) => api.documentsIn(user.id)[0]!), { timeoutMs: 300_000 }),
            exited,
          ]);
        } finally {
          clearInterval(sampler);
        }
        const seconds = (performance.now() - started) / 1000;
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.read(Readable.from([documents[0]!.bytes]));
        results.push({
          delayMs,
          parallel,
          seconds,
          peakRssMb: peak,
          bytes: documents[0]!.bytes.length,
          orderRows: (workbook.worksheets[0]?.rowCount ?? 1) - 1,
          positionRows: (workbook.worksheets[1]?.rowCount ?? 1) - 1,
          portalRequests: portal.state.requests - requestsBefore,
          edits: users.reduce((sum, user) => sum + api.callsTo('editMessageText', { chatId: user.id }).length, 0),
          audits: audits(logFile).slice(auditsBefore),
        });
        const phases = results.at(-1)!.audits.map((audit) => `fetch ${audit.fetchMs} ms, write ${audit.writeMs} ms`).join('; ');
        log(`  ${parallel} × export of ${orders}×${positions}, portal +${delayMs} ms a page, run ${run + 1}: ${seconds.toFixed(2)} s (${phases}), peak ${peak.toFixed(0)} MB`);
        await sleep(500);
      }
    }
    return { orders, positions, idleRssMb, highWaterMb: peakRssMb(pid), runs: results } satisfies ExportBenchResult;
  } finally {
    await child.stop();
    await api.close();
    await portal.close();
    rmSync(temp, { recursive: true, force: true });
  }
};

const f = (value: number, digits = 1) => value.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export const renderExportSection = (result: ExportBenchResult, command: string): string => {
  const { cores, node, cpu } = machine();
  const scenarios = [...new Map(result.runs.map((run) => [`${run.delayMs}:${run.parallel}`, run])).values()];
  const rows = scenarios.map(({ delayMs, parallel }) => {
    const runs = result.runs.filter((run) => run.delayMs === delayMs && run.parallel === parallel);
    const first = runs[0]!;
    const phase = (pick: (audit: Audit) => number) => f(median(runs.flatMap((run) => run.audits.map(pick))) / 1000, 2);
    return `| ${parallel} | +${delayMs} ms | ${runs.length} | ${f(median(runs.map((run) => run.seconds)), 2)} (${runs.map((run) => f(run.seconds, 2)).join(', ')}) | ${phase((a) => a.fetchMs)} / ${phase((a) => a.writeMs)} / ${phase((a) => a.ms - a.fetchMs - a.writeMs)} | ${f(Math.max(...runs.map((run) => run.peakRssMb)), 0)} | ${first.portalRequests} | ${first.edits} | ${f(first.bytes / 2 ** 20, 2)} | ${first.orderRows} / ${first.positionRows} |`;
  });
  return [
    EXPORT_MARKERS.begin,
    '## Export (issue 13)',
    '',
    `\`${command}\` on ${cores} cores (${cpu}), Node ${node}, \`node ${nodeFlags().join(' ')} ${botScript()}\`. The bot as production runs it exports ${result.orders} orders with ${result.positions} positions each (one \`/export\`, EXPORT_MAX_RECORDS 1000 as by default) from a synthetic portal to the strict Bot API emulator, which takes the multipart upload as Telegram does; each run asks another value, so the lookup cache never answers. Time: from the command to the document's arrival (with two at once, to the later one, EXPORT_CONCURRENCY 2 as by default), the median and each run; fetch / write / send: the bot's own account of each export (its audit line), medians; portal requests and edits: of all the run's exports. Peak RSS: the bot's resident memory sampled every ${SAMPLE_MS} ms during the runs.`,
    '',
    '| exports at once | portal, per page | runs | time, s | fetch / write / send, s | peak RSS, MB | portal requests | progress edits | file, MB | rows: orders / positions |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Memory: ${f(result.idleRssMb, 0)} MB idle before the first export; the kernel's high-water mark (VmHWM) after all runs ${f(result.highWaterMb, 0)} MB.`,
    EXPORT_MARKERS.end,
  ].join('\n');
};

/** `npm run bench -- --export [--quick]`: writes only the "Export" section of BENCHMARKS.md. */
export const exportMain = async ({ root, outPath, quick, command }: { root: string; outPath: string; quick: boolean; command: string }) => {
  const scenarios = quick
    ? [{ delayMs: 0, parallel: 1 }]
    : [
        { delayMs: 0, parallel: 1 },
        { delayMs: 100, parallel: 1 },
        { delayMs: 0, parallel: 2 },
      ];
  const result = await runExportBench({ orders: 1000, positions: 60, scenarios, runs: quick ? 1 : 3, root });
  const section = renderExportSection(result, command);
  process.stdout.write(`\n${section}\n`);
  writeMarkedSection(outPath, EXPORT_MARKERS, section);
};
