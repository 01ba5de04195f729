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
}
