/**
 * What one instance's evaluation needs, shared by run-instance (which builds it) and
 * evaluate-instance (which runs the steps).
 * @module
 */
import type { SandboxProvider } from '@sandkit/core';
import type { SweBenchInstance, SweBenchPrediction } from '../load/swe-bench-instance.js';
import type { CheckoutMode } from './checkout-instance.js';
import type { PatchPolicy } from './patch-step.js';
import type { RepoStore } from './repo-store.js';

/** Everything one instance's evaluation needs. */
export interface InstanceContext {
  instance: SweBenchInstance;
  prediction: SweBenchPrediction;
  /** The provider to take the sandbox from (called once; a throw is a `sandbox` error). */
  provider: () => Promise<SandboxProvider>;
  store: RepoStore;
  checkoutMode: CheckoutMode;
  /** How the model patch is applied. */
  patchPolicy: PatchPolicy;
  /** Host directory for this instance's files. */
  outDir: string;
  /** Wall-time budget for the whole instance, in ms. */
  timeoutMs: number;
  /** Aborting (Ctrl-C) kills the running command and destroys the sandbox; the result is then `null`. */
  signal: AbortSignal;
  /** Receives the sandbox's release (destroy), which runs on while the caller continues; await them all before exit. */
  trackRelease: (release: Promise<void>) => void;
  /**
   * Called once when the instance has made its last call into its sandbox and handed the sandbox
   * back (its destroy started): what is left is host-side (parsing, grading, the instance's files),
   * so the caller may start its next instance, whose create takes the quota slot this one frees.
   * Not called when the instance ends before its evaluation script ran (no patch, a sandbox or
   * step error before it): then the instance's result is awaited as before (it may be retried).
   */
  onSandboxDone?: () => void;
  /**
   * What the run has learned about this instance's image in `in-place` mode: `known()` is `true`
   * once an earlier instance of the same image found no repository at `/testbed` (the in-place
   * probe is then skipped and the tree uploaded at once); `learned()` records that finding.
   */
  treelessImage?: { known(): boolean; learned(): void };
  /**
   * The instance's `git archive`, started by runInstance beside the sandbox's create when the tree
   * is known to go in as an archive (so the host's work does not hold the sandbox). Set by runInstance.
   */
  archive?: Promise<Uint8Array>;
}
