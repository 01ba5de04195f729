/**
 * A latency-injecting adapter that makes the local adapter behave like a cloud sandbox vendor
 * (E2B's measured behaviour), for simulating evaluations at scale with every real code path:
 * real directories, real processes, the real pool and harness.
 *
 * - `create()` takes a long-tailed time (log-normal, clamped), holds a slot of the vendor's
 *   concurrency quota from the moment it is asked until `destroy()` finishes, and throws
 *   SandboxError `sandbox_rate_limited` after one round trip when the quota is full.
 * - A share of creates fails with `sandbox_start_failed` after its create time.
 * - A share of sandboxes expires mid-run: at one of its first calls the vendor kills it (its slot
 *   frees at once, its processes and files are gone) and that call and every later one throw
 *   `sandbox_gone`, as E2B's adapter does for an expired sandbox.
 * - Every `exec`, `readFile`, `writeFile` and `destroy` pays one network round trip first.
 * - `destroy()` resolves, and the quota slot frees, when the vendor has taken the kill (one round
 *   trip), as E2B's `kill` does; the local sandbox behind it (processes, directory) is torn down
 *   after that, at most `teardownConcurrency` at a time, standing for the vendor's own cleanup.
 *   `settled()` waits for every teardown; check for leftovers only after it.
 *
 * Seeded: the n-th create (counted from 1) draws its create time, its fate and its sandbox's round
 * trips from stream n of the seed, so one seed gives the same latencies and the same number of
 * injected faults at the same create numbers on every run, whatever order concurrent calls land in.
 * @module
 */
import {
  type ExecOptions,
  type SandboxAdapter,
  type SandboxClient,
  SandboxError,
  type SandboxHandle,
  SandkitErrorCode,
} from '@sandkit/core';
import { logNormalBetween, seededStream, uniformBetween } from './seeded-random.js';

/** Options of {@link createSimulatedVendorAdapter}; see {@link defaultVendorProfile}. */
export interface SimulatedVendorOptions {
  /** The adapter doing the real work (the local adapter). */
  inner: SandboxAdapter;
  /** Seed of every draw. */
  seed: number;
  /** Sandboxes alive at once (creating, running or being destroyed) past which create is refused. */
  quota: number;
  /** Create time: log-normal median and sigma, clamped to [min, max], in ms. */
  createMs: { median: number; sigma: number; min: number; max: number };
  /** Round trip added to every call, uniform in [min, max), in ms. */
  roundTripMs: { min: number; max: number };
  /** Share of creates that fail with `sandbox_start_failed` (0–1). */
  createFailureRate: number;
  /** Share of created sandboxes that expire mid-run (0–1). */
  expiryRate: number;
  /** The call (1-based, counting exec/readFile/writeFile) at which an expiring sandbox dies is uniform in [2, this]. */
  expiryLastCall: number;
  /**
   * Creates the vendor accepts per second (any 1 s window); past it, create throws
   * `sandbox_rate_limited` after one round trip (E2B: 1/s Hobby, 5/s Pro). @default Infinity
   */
  createsPerSecond?: number;
  /** Local teardowns (the inner adapter's `destroy`) run at once, in the background. @default 4 */
  teardownConcurrency?: number;
  /** Adapter name. @default 'simulated-vendor' */
  name?: string;
}

/**
 * The vendor profile of issue 12: create 150–900 ms (median 300), +20–80 ms per call, 1% failed
 * creates, 0.5% expiries. An expiring sandbox dies at its 2nd or 3rd call: once a run knows its
 * image has no repository at `/testbed`, an instance makes 3 (the tree's upload, the script, the
 * script's run), so every drawn expiry happens mid-run (it was the 2nd–5th call, of 5, when every
 * instance probed first; a later call would now never come).
 */
export const defaultVendorProfile = {
  createMs: { median: 300, sigma: 0.5, min: 150, max: 900 },
  roundTripMs: { min: 20, max: 80 },
  createFailureRate: 0.01,
  expiryRate: 0.005,
  expiryLastCall: 3,
} as const;

/** What happened at the vendor, for assertions and reports. */
export interface SimulatedVendorStats {
  /** Every create call, refused or not. */
  createCalls: number;
  /** Creates refused for the quota or the creation rate. */
  rateLimited: number;
  /** Of `rateLimited`, the creates refused for the creation rate. */
  createRateRefusals: number;
  /** Creates that failed after their create time (injected). */
  failedCreates: number;
  /** Sandboxes handed out. */
  created: number;
  /** Sandboxes that expired mid-run (injected). */
  expired: number;
  /** Sandboxes destroyed by a `destroy()` call (expired ones are not counted here). */
  destroyed: number;
  /** Quota slots held now. */
  live: number;
  /** Most quota slots ever held at once. */
  peakLive: number;
  /** Sandboxes handed out and neither destroyed nor expired: leaked if the run is over. */
  liveSandboxIds: string[];
  /** The integral of held slots over time, in slot·ms, up to now. */
  slotMs: number;
  /** Local teardowns queued or running now. */
  teardownsPending: number;
  /** Longest local teardown (the inner adapter's `destroy`), in ms, queueing excluded. */
  teardownMaxMs: number;
  /** Sum of the local teardowns' times, in ms. */
  teardownTotalMs: number;
}

/** One sandbox the vendor handed out; times are `performance.now()` values, in ms. */
export interface SimulatedSandboxRecord {
  id: string;
  /** When the create call that made it was received. */
  requestedAt: number;
  /** When the create returned it. */
  readyAt: number;
  /** When its first exec, readFile or writeFile was received; `null` if it had none. */
  firstCallAt: number | null;
  /** When its slot freed (destroyed or expired); `null` while alive. */
  endedAt: number | null;
  expired: boolean;
}

/** The simulated vendor: an adapter plus its counters. */
export interface SimulatedVendorAdapter extends SandboxAdapter {
  stats(): SimulatedVendorStats;
  /** Every sandbox handed out, by id. */
  sandboxes(): ReadonlyMap<string, SimulatedSandboxRecord>;
  /** Resolves once every local teardown started so far has finished. */
  settled(): Promise<void>;
  /** When each quota slot was taken (a create accepted) and freed (a failed create, a destroy, an expiry), oldest first; `performance.now()` values in ms. */
  slotTimeline(): { takenAt: readonly number[]; freedAt: readonly number[] };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates the simulated vendor over `options.inner`. */
export function createSimulatedVendorAdapter(options: SimulatedVendorOptions): SimulatedVendorAdapter {
  const counts = {
    createCalls: 0,
    rateLimited: 0,
    createRateRefusals: 0,
    failedCreates: 0,
    created: 0,
    expired: 0,
    destroyed: 0,
  };
  const createsPerSecond = options.createsPerSecond ?? Number.POSITIVE_INFINITY;
  /** `performance.now()` of the creates accepted in the last second, oldest first. */
  const accepted: number[] = [];
  const handedOut = new Set<string>();
  const records = new Map<string, SimulatedSandboxRecord>();
  const teardown = createTeardownQueue(options.teardownConcurrency ?? 4);
  let live = 0;
  let peakLive = 0;
  let slotMs = 0;
  let changedAt = performance.now();
  const takenAt: number[] = [];
  const freedAt: number[] = [];
  const account = (delta: number): void => {
    const now = performance.now();
    if (delta > 0) takenAt.push(now);
    else if (delta < 0) freedAt.push(now);
    slotMs += live * (now - changedAt);
    changedAt = now;
    live += delta;
    peakLive = Math.max(peakLive, live);
  };

  return {
    name: options.name ?? 'simulated-vendor',
    sandboxes() {
      return records;
    },
    stats() {
      account(0);
      return {
        ...counts,
        live,
        peakLive,
        liveSandboxIds: [...handedOut],
        slotMs,
        teardownsPending: teardown.pending(),
        teardownMaxMs: teardown.maxMs(),
        teardownTotalMs: teardown.totalMs(),
      };
    },
    settled: () => teardown.idle(),
    slotTimeline: () => ({ takenAt, freedAt }),
    async create() {
      const serial = ++counts.createCalls;
      const requestedAt = performance.now();
      const random = seededStream(options.seed, serial);
      const { median, sigma, min, max } = options.createMs;
      const createMs = logNormalBetween(random, median, sigma, min, max);
      const fails = random() < options.createFailureRate;
      const expiresAtCall =
        random() < options.expiryRate ? Math.floor(uniformBetween(random, 2, options.expiryLastCall + 1)) : 0;
      const roundTrip = () => uniformBetween(random, options.roundTripMs.min, options.roundTripMs.max);
      while (accepted.length > 0 && requestedAt - (accepted[0] ?? 0) >= 1000) accepted.shift();
      if (accepted.length >= createsPerSecond) {
        counts.rateLimited++;
        counts.createRateRefusals++;
        await sleep(roundTrip());
        throw new SandboxError({
          code: SandkitErrorCode.sandboxRateLimited,
          message: `simulated vendor: more than ${createsPerSecond} creates per second; retry later`,
          details: { createsPerSecond },
        });
      }
      if (live >= options.quota) {
        counts.rateLimited++;
        await sleep(roundTrip());
        throw new SandboxError({
          code: SandkitErrorCode.sandboxRateLimited,
          message: `simulated vendor: concurrency quota of ${options.quota} sandboxes reached; retry when one ends`,
          details: { quota: options.quota },
        });
      }
      accepted.push(requestedAt);
      account(+1);
      await sleep(createMs);
      let inner: SandboxHandle;
      try {
        if (fails) {
          counts.failedCreates++;
          throw new SandboxError({
            code: SandkitErrorCode.sandboxStartFailed,
            message: `simulated vendor: create #${serial} failed (injected)`,
          });
        }
        inner = await options.inner.create();
      } catch (error) {
        account(-1);
        throw error;
      }
      counts.created++;
      const id = `sim-${serial}`;
      handedOut.add(id);
      const record: SimulatedSandboxRecord = {
        id,
        requestedAt,
        readyAt: performance.now(),
        firstCallAt: null,
        endedAt: null,
        expired: false,
      };
      records.set(id, record);
      let calls = 0;
      let state: 'running' | 'expired' | 'destroyed' = 'running';
      let destroying: Promise<void> | undefined;
      /** One round trip, then the vendor's check that the sandbox still exists. */
      const call = async (): Promise<void> => {
        record.firstCallAt ??= performance.now();
        await sleep(roundTrip());
        if (state === 'running' && ++calls === expiresAtCall) {
          state = 'expired';
          counts.expired++;
          handedOut.delete(id);
          teardown.add(() => inner.destroy());
          account(-1);
          record.expired = true;
          record.endedAt = performance.now();
        }
        if (state === 'expired') {
          throw new SandboxError({
            code: SandkitErrorCode.sandboxGone,
            message: `simulated vendor: sandbox ${id} is gone (expired); acquire a new sandbox`,
            details: { sandboxId: id },
          });
        }
        if (state === 'destroyed') {
          throw new SandboxError({
            code: SandkitErrorCode.sandboxDestroyed,
            message: `simulated vendor: sandbox ${id} was destroyed; acquire a new one`,
          });
        }
      };
      const client: SandboxClient = {
        exec: async (command: string, execOptions?: ExecOptions) => {
          await call();
          return inner.client.exec(command, execOptions);
        },
        readFile: async (path, readOptions) => {
          await call();
          return inner.client.readFile(path, readOptions);
        },
        writeFile: async (path, data, writeOptions) => {
          await call();
          return inner.client.writeFile(path, data, writeOptions);
        },
      };
      return {
        id,
        client,
        workdir: inner.workdir,
        destroy() {
          destroying ??= (async () => {
            await sleep(roundTrip());
            if (state !== 'running') return;
            state = 'destroyed';
            teardown.add(() => inner.destroy());
            counts.destroyed++;
            handedOut.delete(id);
            account(-1);
            record.endedAt = performance.now();
          })();
          return destroying;
        },
      };
    },
  };
}

/** Runs teardowns at most `concurrency` at a time and keeps their times. */
function createTeardownQueue(concurrency: number) {
  const queue: Array<() => Promise<void>> = [];
  let running = 0;
  let maxMs = 0;
  let totalMs = 0;
  let waiters: Array<() => void> = [];
  const next = (): void => {
    while (running < concurrency && queue.length > 0) {
      const job = queue.shift()!;
      running++;
      const started = performance.now();
      void job()
        .catch((error: unknown) => {
          process.emitWarning(`simulated vendor: local teardown failed: ${(error as Error).message}`);
        })
        .finally(() => {
          const ms = performance.now() - started;
          maxMs = Math.max(maxMs, ms);
          totalMs += ms;
          running--;
          next();
          if (running === 0 && queue.length === 0) {
            for (const wake of waiters) wake();
            waiters = [];
          }
        });
    }
  };
  return {
    add(job: () => Promise<void>): void {
      queue.push(job);
      next();
    },
    pending: () => running + queue.length,
    maxMs: () => maxMs,
    totalMs: () => totalMs,
    idle: (): Promise<void> =>
      running === 0 && queue.length === 0 ? Promise.resolve() : new Promise((wake) => waiters.push(wake)),
  };
}
