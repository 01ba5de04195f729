/**
 * What one instance of `sandkit run` needs: the instance, how its tree gets in, the sandbox
 * provider, the model, the prompt and the limits (shared by `runAgentInstance` and its attempts).
 * @module
 */
import type { SandboxProvider } from '@sandkit/core';
import type { LanguageModel } from 'ai';
import type { TreeContext } from '../eval/instance/instance-tree.js';
import type { SweBenchInstance } from '../eval/load/swe-bench-instance.js';
import type { Trajectory, TrajectoryStep } from './trajectory-schema.js';
import type { CostOf } from './trajectory-step.js';

/** What one instance needs. */
export interface AgentInstanceContext {
  instance: SweBenchInstance;
  /** How the tree gets in (shared with `sandkit eval`). */
  tree: Omit<TreeContext, 'instance' | 'signal'>;
  /** The provider to take the sandbox from. */
  provider: () => Promise<SandboxProvider>;
  model: LanguageModel;
  modelName: string;
  promptTemplate: string;
  stepLimit: number;
  /** USD per instance, checked before each model call; `null` = none. */
  costLimitUsd: number | null;
  /** USD of the whole run, checked before each model call against `spent`; `null` = none. */
  totalCostLimitUsd: number | null;
  /** The run's spending so far, shared by every instance (this one adds its steps' costs). */
  spent: { usd: number };
  timeoutMs: number;
  /** Retries of a failed model request (429, 5xx), with the AI SDK's backoff honouring `retry-after`. */
  maxRetries: number;
  costOf: CostOf;
  /** Aborting (Ctrl-C) stops the model call and the commands; the status is then `aborted`. */
  signal: AbortSignal;
  /** Called after each step (live progress). */
  onStep?: (step: TrajectoryStep) => void;
  /** Called when an attempt's infrastructure failed and the instance starts again on a fresh sandbox. */
  onRetry?: (failed: { error: Trajectory['error'] }) => void;
}
