import type { SandboxClient } from './sandbox-client.js';

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
}

/** Options every adapter's `create()` accepts. */
export interface SandboxCreateOptions {
  signal?: AbortSignal;
}

/** A sandbox vendor: makes sandboxes. */
export interface SandboxAdapter {
  /** Short vendor name, for example `'local'`, `'docker'`, `'e2b'`. */
  readonly name: string;
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
