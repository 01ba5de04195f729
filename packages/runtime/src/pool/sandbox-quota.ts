/**
 * A cap on live sandboxes shared by several pools: a vendor's concurrency quota is per account,
 * while `sandkit eval` makes one pool per image (SWE-bench's official images are one per
 * instance), so each pool's own `max` cannot keep the run under the quota.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** A pool taking part in a {@link SandboxQuota}. */
export interface SandboxQuotaMember {
  /** Ends one of the member's create retries paused after a rate limit; `false` when it has none. */
  wakeRateLimited(): boolean;
  /** Lets the member start the creates it is waiting to start, taking free slots. */
  slotFreed(): void;
  /** Destroys one of the member's idle sandboxes above its `min`, freeing its slot soon; `false` when it has none. */
  evictIdle(): boolean;
}

/**
 * Slots shared by the pools given it as `quota`: a pool takes one before each create and gives it
 * back when that sandbox is gone (destroyed, or its create failed for good).
 */
export interface SandboxQuota {
  /** Most slots held at once. */
  readonly limit: number;
  /** Slots held now, by every member. */
  held(): number;
  /** Takes a slot (the pool does, before a create); `false` (nothing taken) when all `limit` are held. */
  tryTake(): boolean;
  /**
   * Gives back a slot taken with {@link SandboxQuota.tryTake}, once the sandbox holding it is gone.
   * That also frees a slot at the vendor, so one member's create retry paused after a rate limit
   * is woken first (members in the order they joined), then every member may take the free slot
   * for a waiting acquire.
   */
  give(): void;
  /** Slots given back so far (a count that only grows): a create reads it before it is sent. */
  frees(): number;
  /**
   * For a create refused with a rate limit that was sent when {@link SandboxQuota.frees} was
   * `sentAt`: `true`, claiming it, when a slot freed since then has not been claimed by a woken
   * retry or another refused create. The vendor refused the create before that slot freed, and no
   * retry was paused to be woken by it (this one was still on its way back), so retrying at once
   * uses it; otherwise the retry waits for the next free or its backoff.
   */
  claimFreeSince(sentAt: number): boolean;
  /**
   * Asks members (in the order they joined) to destroy idle sandboxes above their `min`, so that
   * `count` slots free up for a member whose acquires wait on a full quota; evictions asked for
   * earlier and not yet given back count towards `count`.
   */
  reclaim(count: number): void;
  /** Adds a member; the returned function removes it. */
  join(member: SandboxQuotaMember): () => void;
  /**
   * The time, in ms from now, a create may be sent at, reserving that turn: turns are
   * `1000 / createsPerSecond + 1` ms apart, first come first served (0 without pacing). A member waits
   * that long before calling the adapter's `create()`, so that a vendor's creation rate limit
   * (E2B: 1 a second on Hobby, 5 on Pro) is never hit.
   */
  reserveCreate(): number;
}

/** Least `createsPerSecond` accepted: one create every 1,000 s (a turn must fit Node's timers). */
export const minCreatesPerSecond = 0.001;

/** Options of {@link createSandboxQuota}. */
export interface SandboxQuotaOptions {
  /**
   * Creates per second the members may send together, at most: the vendor's creation rate limit.
   * At least {@link minCreatesPerSecond}; `Infinity` for none.
   * @default Infinity
   */
  createsPerSecond?: number;
}

/**
 * Creates a quota of `limit` live sandboxes to share between pools (`createPooledSandboxProvider({
 * quota })`): together they never hold more than `limit`, each also staying under its own `max`,
 * and with `options.createsPerSecond` they send creates no faster than that.
 * @throws SandkitError `invalid_option` unless `limit` is an integer ≥ 1 or `Infinity`, or for a
 *   `createsPerSecond` below {@link minCreatesPerSecond} (or not a number).
 */
export function createSandboxQuota(limit: number, options: SandboxQuotaOptions = {}): SandboxQuota {
  if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1)))
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `createSandboxQuota: limit must be an integer ≥ 1 or Infinity, got ${limit}`,
    });
  const createsPerSecond = options.createsPerSecond ?? Number.POSITIVE_INFINITY;
  if (!(typeof createsPerSecond === 'number' && createsPerSecond >= minCreatesPerSecond))
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `createSandboxQuota: createsPerSecond must be a number ≥ ${minCreatesPerSecond} or Infinity (your vendor's creation rate limit), got ${createsPerSecond}`,
    });
  // 1 ms over the exact spacing: a timer may fire up to 1 ms before its time, and a vendor counting
  // creates in a 1 s window would refuse one that came that early
  const turnMs = createsPerSecond === Number.POSITIVE_INFINITY ? 0 : 1000 / createsPerSecond + 1;
  /** When the next create may be sent (performance.now() ms). */
  let nextTurn = 0;
  const members = new Set<SandboxQuotaMember>();
  let held = 0;
  let reclaiming = 0;
  /** Slots given back, and how many of those a retry has used (woken, or retried at once). */
  let freed = 0;
  let claimed = 0;
  return {
    limit,
    held: () => held,
    tryTake() {
      if (held >= limit) return false;
      held++;
      return true;
    },
    give() {
      held--;
      freed++;
      if (reclaiming > 0) reclaiming--;
      for (const member of [...members]) {
        if (member.wakeRateLimited()) {
          claimed = freed;
          break;
        }
      }
      for (const member of [...members]) member.slotFreed();
    },
    frees: () => freed,
    claimFreeSince(sentAt) {
      const from = Math.max(claimed, sentAt);
      if (freed <= from) return false;
      claimed = from + 1;
      return true;
    },
    reclaim(count) {
      while (reclaiming < count) {
        let evicted = false;
        for (const member of [...members]) {
          if (member.evictIdle()) {
            evicted = true;
            break;
          }
        }
        if (!evicted) return;
        reclaiming++;
      }
    },
    join(member) {
      members.add(member);
      return () => members.delete(member);
    },
    reserveCreate() {
      if (turnMs === 0) return 0;
      const now = performance.now();
      const at = Math.max(now, nextTurn);
      nextTurn = at + turnMs;
      return at - now;
    },
  };
}
