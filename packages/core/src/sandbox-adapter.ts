import type { SandboxClient } from './sandbox-client.js';

/**
 * A lifecycle operation beyond create and destroy, which a vendor may offer:
 * - `pause`: {@link SandboxHandle.pause} / {@link SandboxHandle.resume} (files survive; memory too
 *   where the vendor keeps it);
 * - `snapshot`: {@link SandboxHandle.snapshot} → an id that `create({ fromSnapshot })` accepts;
 * - `fork`: {@link SandboxHandle.fork} → new sandboxes that start from this one's files;
 * - `extendLifetime`: {@link SandboxHandle.extendLifetime}, for vendors whose sandboxes expire.
 */
export type SandboxCapability = 'pause' | 'snapshot' | 'fork' | 'extendLifetime';

/** Which {@link SandboxCapability} an adapter's handles implement (`true`) or refuse (`false`). */
export type SandboxCapabilities = Readonly<Record<SandboxCapability, boolean>>;

/** One live sandbox made by a {@link SandboxAdapter}. */
export interface SandboxHandle {
  /** Unique id of this sandbox (vendor id or a generated one). */
  readonly id: string;
  /** The contract to run commands and move files. */
  readonly client: SandboxClient;
  /** Absolute path of the sandbox's working directory; the natural `root` for the tools. */
  readonly workdir: string;
  /** Ends the sandbox and frees what it holds. Calling it twice is a no-op. */
  destroy(): Promise<void>;
  /**
   * Stops the sandbox's processes and keeps its files (capability `pause`); client calls fail until
   * {@link SandboxHandle.resume}. Absent on adapters that predate capabilities.
   * @throws SandboxError `capability_unsupported` when the adapter's `capabilities.pause` is false.
   */
  pause?(): Promise<void>;
  /** Resumes a paused sandbox. @throws as {@link SandboxHandle.pause} */
  resume?(): Promise<void>;
  /**
   * Saves the sandbox's files (capability `snapshot`) and returns an id that the same adapter's
   * `create({ fromSnapshot: id })` starts a new sandbox from. The snapshot outlives this sandbox.
   * @throws SandboxError `capability_unsupported` when the adapter's `capabilities.snapshot` is false.
   */
  snapshot?(): Promise<string>;
  /**
   * Makes `count` (≥ 1) new sandboxes that start from this one's files as they are now (capability
   * `fork`); each is the caller's to destroy, and writes in one stay its own.
   * @throws SandboxError `capability_unsupported` when the adapter's `capabilities.fork` is false;
   *   SandkitError `invalid_option` for a count that is not a positive integer.
   */
  fork?(count: number): Promise<SandboxHandle[]>;
  /**
   * Sets the sandbox's remaining lifetime to `ms` from now (capability `extendLifetime`).
   * @throws SandboxError `capability_unsupported` when the adapter's `capabilities.extendLifetime` is
   *   false; SandkitError `invalid_option` for a non-positive `ms`.
   */
  extendLifetime?(ms: number): Promise<void>;
}

/** Options every adapter's `create()` accepts. */
export interface SandboxCreateOptions {
  signal?: AbortSignal;
  /**
   * Start from a snapshot that this adapter's {@link SandboxHandle.snapshot} returned.
   * @throws SandboxError `capability_unsupported` on an adapter without `snapshot`.
   */
  fromSnapshot?: string;
}

/** A sandbox vendor: makes sandboxes. */
export interface SandboxAdapter {
  /** Short vendor name, for example `'local'`, `'docker'`, `'e2b'`. */
  readonly name: string;
  /**
   * Which lifecycle operations its handles implement. Absent on adapters that predate capabilities
   * (treat as all `false`).
   */
  readonly capabilities?: SandboxCapabilities;
  /**
   * Creates and starts a sandbox.
   * @throws SandboxError `sandbox_start_failed` when the vendor cannot start it.
   */
  create(options?: SandboxCreateOptions): Promise<SandboxHandle>;
}

/** Options of {@link SandboxProvider.acquire}. */
export interface SandboxAcquireOptions {
  signal?: AbortSignal;
  /** How long the caller expects to use the sandbox, in ms; vendors with a lifetime extend it. */
  expectedDurationMs?: number;
}

/** Options of {@link SandboxSession.release}. */
export interface SandboxReleaseOptions {
  /** Destroy the sandbox instead of returning it for reuse (for example after a SandboxError). */
  destroy?: boolean;
}

/** A sandbox lent out by a {@link SandboxProvider}. */
export interface SandboxSession {
  readonly id: string;
  readonly client: SandboxClient;
  readonly workdir: string;
  /** Name of the provider or adapter that served it. */
  readonly providerName: string;
  /**
   * Gives the sandbox back.
   * @throws SandkitError `already_released` on a second call.
   */
  release(options?: SandboxReleaseOptions): Promise<void>;
}

/** Something that lends sandboxes: a pool, a composite, or a plain adapter wrapper. */
export interface SandboxProvider {
  readonly name: string;
  /**
   * @throws SandboxError `pool_exhausted` when no sandbox frees up in time, `pool_closed` after close.
   */
  acquire(options?: SandboxAcquireOptions): Promise<SandboxSession>;
  /** Stops lending, waits for sandboxes in use up to a deadline, destroys all. */
  close(): Promise<void>;
}
