import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { pause } from '../backoff.ts';
import type { Gauge } from '../metrics/registry.ts';
import type { CoordinationStore } from '../store/store.ts';
import type { Runner } from '../telegram/polling-runner.ts';

// Telegram allows one getUpdates consumer per bot and answers a second with 409: with several
// replicas, the one holding the "polling" lease polls and the others stand by, calling nothing.
// A poller that cannot renew polls on until it sees another holder (the store says so, or a 409
// after its lease ended): nobody else can take the lease before, so a database outage is no silence.

export const POLLING_LEASE = 'polling';
/** A leader that lost its lease ends its long poll at once and gives its handlers this long. */
const LOST_GRACE_MS = 1_000;

/** This process as a lease owner: unique across hosts, restarts and processes. */
export const createOwnerId = (): string => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

export type PollingLeadership = {
  /** Stops polling (waiting up to graceMs for the handlers) and gives the lease up for a standby. */
  stop(graceMs: number): Promise<void>;
  inFlight(): number;
  /** True while this replica holds the lease. */
  leading(): boolean;
  /** Resolves after stop(); rejects when Telegram refuses the bot for good while it polls. */
  done: Promise<void>;
};

export type LeadershipOptions = {
  coordination: Pick<CoordinationStore, 'lease' | 'releaseLease'>;
  owner: string;
  /** A standby takes over at most this long after the holder died (LEADER_LEASE_SECONDS). */
  leaseMs: number;
  logger: Logger;
  /** Set to 1 while leading, 0 while standing by. */
  gauge?: Gauge;
  /**
   * Starts polling: called on taking the lease; `signal` ends its start-up retries when the lead
   * is given up meanwhile; the runner calls `onConflict` on each 409 from getUpdates.
   */
  startRunner: (signal: AbortSignal, onConflict: () => void) => Promise<Runner>;
  now?: () => number;
};

type Lead = {
  /** The runner once started; undefined when it failed to start or was abandoned meanwhile. */
  runner: Promise<Runner | undefined>;
  current: Runner | undefined;
  /** Aborted when the lead is given up before its runner started: stop it as soon as it has. */
  abandon: AbortController;
};

/** Rejects when `work` does not settle within `ms`: a store that hangs must not outlast the lease. */
const within = <T>(work: () => T | Promise<T>, ms: number): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the store did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([Promise.resolve().then(work), timeout]).finally(() => clearTimeout(timer));
};

/**
 * Polls while this replica holds the polling lease, and stands by otherwise. The holder renews
 * it every leaseMs/6; a standby tries for it as often, so it takes over within leaseMs after the
 * holder died. A standby polls only once it holds the lease. A holder whose renewal fails, or does
 * not answer within the period, polls on: no replica can take the lease before it ends, and none
 * through a store that is down. It stops when the store answers that another replica holds the
 * lease, or when Telegram answers 409 after its lease ended: another replica took it and polls,
 * and the two overlap for one long poll at most.
 */
export const startPollingLeadership = async ({ coordination, owner, leaseMs, logger, gauge, startRunner, now = Date.now }: LeadershipOptions): Promise<PollingLeadership> => {
  // The store keeps the lease for two thirds of leaseMs, renewed or tried for every sixth: a
  // standby takes over at most 2/3 + 1/6 of leaseMs after the holder's last renewal, so within
  // LEADER_LEASE_SECONDS of its death, and a holder gets four tries before its lease could end.
  const periodMs = Math.max(1, Math.floor(leaseMs / 6));
  const heldMs = Math.max(2, Math.floor((leaseMs * 2) / 3));
  const aborter = new AbortController();
  /** The runner while this replica leads: starting (its start-up calls retry), or running. */
  let lead: Lead | undefined;
  /** When the lease this replica last took or renewed ends, by its clock. */
  let heldUntil = -Infinity;
  let standingBy = false;
  let storeFailing = false;
  let looping: Promise<void> = Promise.resolve();
  const ended = Promise.withResolvers<void>();
  // Observed here, so that a refusal nobody awaits is no unhandled rejection; `done` still rejects.
  ended.promise.catch(() => undefined);

  /** Stops the lead's runner; one still making its start-up calls is stopped once it has started. */
  const stopRunner = async (graceMs: number) => {
    const current = lead;
    lead = undefined;
    if (current === undefined) return;
    const late = Promise.withResolvers<undefined>();
    const timer = setTimeout(() => late.resolve(undefined), graceMs);
    const runner = await Promise.race([current.runner, late.promise]);
    clearTimeout(timer);
    if (runner === undefined) current.abandon.abort();
    else await runner.stop(graceMs);
  };

  const takeLead = () => {
    standingBy = false;
    gauge?.set({}, 1);
    logger.info({ owner }, 'took over polling');
    const entry: Lead = { abandon: new AbortController(), current: undefined, runner: Promise.resolve(undefined) };
    const onConflict = () => {
      // Within its lease no replica can hold it: a 409 then is a hand-over's tail or a stray poller.
      if (lead === entry && now() >= heldUntil) void standDown(new Error('Telegram answered 409 after the lease ended: another replica took it and polls'));
    };
    entry.runner = startRunner(entry.abandon.signal, onConflict).then(
      (runner) => {
        if (entry.abandon.signal.aborted) {
          void runner.stop(0);
          return undefined;
        }
        entry.current = runner;
        // Telegram refusing the bot for good ends this process's polling, lease or not.
        runner.done.catch((error: unknown) => {
          if (lead === entry) void shutdown(0, error);
        });
        return runner;
      },
      (error: unknown) => {
        if (lead === entry) void shutdown(0, error);
        return undefined;
      },
    );
    lead = entry;
  };

  const standDown = async (reason: unknown) => {
    if (lead === undefined) return;
    gauge?.set({}, 0);
    logger.warn({ err: reason, owner }, 'lost the polling lease');
    await stopRunner(LOST_GRACE_MS);
  };

  const tick = async () => {
    let held = false;
    let problem: unknown;
    // After an outage the poller's lease has ended: a standby waits one more period, so that the
    // replica still polling renews first and no hand-over (and 409 overlap) follows every outage.
    if (lead === undefined && storeFailing) await pause(periodMs, aborter.signal);
    if (aborter.signal.aborted) return;
    const at = now();
    try {
      held = await within(() => coordination.lease(POLLING_LEASE, owner, at, heldMs), periodMs);
    } catch (error) {
      problem = error;
    }
    if (aborter.signal.aborted) return;
    const leading = lead !== undefined;
    const wasFailing = storeFailing;
    storeFailing = problem !== undefined;
    if (held) {
      heldUntil = at + heldMs;
      if (!leading) takeLead();
      else if (wasFailing) logger.info({ owner }, 'renewed the polling lease again');
    } else if (problem === undefined) {
      if (leading) await standDown(new Error('another replica holds the lease'));
      else if (!standingBy) {
        standingBy = true;
        logger.info({ owner, retryMs: periodMs }, 'standing by: another replica polls');
      }
    } else if (!wasFailing) {
      if (leading) logger.warn({ err: problem, owner, leaseEndsInMs: Math.max(0, heldUntil - now()) }, 'could not renew the polling lease: polling goes on until another replica is seen to hold it');
      else logger.warn({ err: problem }, 'could not try for the polling lease: the store failed');
    }
  };

  const loop = async () => {
    while (!aborter.signal.aborted) {
      await pause(periodMs, aborter.signal);
      if (!aborter.signal.aborted) await tick();
    }
  };

  let stopping: Promise<void> | undefined;
  const shutdown = (graceMs: number, failure?: unknown) =>
    (stopping ??= (async () => {
      aborter.abort();
      await looping;
      await stopRunner(graceMs);
      gauge?.set({}, 0);
      try {
        // A standby takes over at its next try instead of waiting for the lease to end.
        await coordination.releaseLease(POLLING_LEASE, owner);
      } catch (error) {
        logger.warn({ err: error }, 'could not give the polling lease up: a standby takes over when it ends');
      }
      if (failure === undefined) ended.resolve();
      else ended.reject(failure);
    })());

  gauge?.set({}, 0);
  await tick();
  looping = loop();
  return {
    stop: (graceMs) => shutdown(graceMs),
    inFlight: () => lead?.current?.inFlight() ?? 0,
    leading: () => lead !== undefined,
    done: ended.promise,
  };
};
