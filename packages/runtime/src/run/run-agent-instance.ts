/**
 * One instance of `sandkit run`: an attempt ({@link runAgentAttempt}) on a fresh sandbox, the
 * instance's wall clock and Ctrl-C over it, and one more attempt on another fresh sandbox when the
 * first one's infrastructure failed (the sandbox could not be created, or died under the tools):
 * both attempts stay in the trajectory (`attempts` holds the failed one), and the exit status and
 * patch are the last attempt's.
 * @module
 */
import type { AgentInstanceContext } from './agent-instance-context.js';
import { type AttemptOutcome, type AttemptState, runAgentAttempt } from './run-agent-attempt.js';
import type { Trajectory, TrajectoryAttempt } from './trajectory-schema.js';
import { sumUsage } from './trajectory-step.js';

export type { AgentInstanceContext } from './agent-instance-context.js';

/** Attempts of one instance at most: the first, and one on a fresh sandbox after an infrastructure failure. */
export const maxAttempts = 2;

/** Runs the instance. Never throws for anything the instance does: every end is a status. */
export async function runAgentInstance(ctx: AgentInstanceContext): Promise<Trajectory> {
  const startedAt = new Date();
  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`the instance ran past --instance-timeout ${ctx.timeoutMs / 1000} s`));
  }, ctx.timeoutMs);
  const onAbort = (): void => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  const state: AttemptState = {
    signal: controller.signal,
    started,
    timedOut: () => timedOut,
    instanceUsd: 0,
  };
  const failed: AttemptOutcome[] = [];
  let last: AttemptOutcome;
  try {
    for (;;) {
      last = await runAgentAttempt(ctx, state);
      if (!last.infrastructure || controller.signal.aborted || failed.length + 1 >= maxAttempts) break;
      failed.push(last);
      ctx.onRetry?.(last);
    }
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
  const everyStep = [...failed.flatMap((a) => a.steps), ...last.steps];
  const costs = everyStep.map((s) => s.cost_usd);
  return {
    format: 'sandkit-trajectory-1',
    instance_id: ctx.instance.instance_id,
    model: { name: ctx.modelName, settings: { maxRetries: ctx.maxRetries } },
    limits: {
      step_limit: ctx.stepLimit,
      cost_limit_usd: ctx.costLimitUsd,
      instance_timeout_s: ctx.timeoutMs / 1000,
      total_cost_limit_usd: ctx.totalCostLimitUsd,
    },
    exit_status: last.status,
    error: last.error,
    patch: last.patch,
    patch_error: last.patchError,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    duration_ms: Math.round(performance.now() - started),
    sandbox: last.sandbox,
    prompt: last.prompt,
    messages: last.messages,
    steps: last.steps,
    attempts: failed.map(toTrajectoryAttempt),
    totals: {
      ...sumUsage(everyStep.map((s) => s.usage)),
      steps: everyStep.length,
      tool_calls: everyStep.reduce((n, s) => n + s.tool_calls.length, 0),
      cost_usd: ctx.costOf === null ? null : costs.reduce<number>((sum, c) => sum + (c ?? 0), 0),
    },
  };
}

function toTrajectoryAttempt(outcome: AttemptOutcome, index: number): TrajectoryAttempt {
  return {
    attempt: index + 1,
    exit_status: outcome.status,
    error: outcome.error,
    started_at: outcome.startedAt.toISOString(),
    finished_at: outcome.finishedAt.toISOString(),
    duration_ms: outcome.durationMs,
    sandbox: outcome.sandbox,
    messages: outcome.messages,
    steps: outcome.steps,
    patch: outcome.patch,
    patch_error: outcome.patchError,
  };
}
