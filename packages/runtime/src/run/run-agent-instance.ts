/**
 * One instance of `sandkit run`: a fresh sandbox prepared as `sandkit eval` prepares it, the model
 * with sandkit's tools rooted at the repository, the limits, one exit status, and the patch taken
 * whatever ended the instance. The sandbox is destroyed on every path.
 * @module
 */
import { SandboxError, type SandboxProvider, type SandboxSession, toAISDKTools } from '@sandkit/core';
import { generateText, type LanguageModel, stepCountIs, type ToolSet } from 'ai';
import { defaultCodingTools } from '../agent/default-coding-tools.js';
import { workspaceDiff } from '../agent/workspace-diff.js';
import { EvalLog } from '../eval/instance/eval-log.js';
import { StepError } from '../eval/instance/eval-step-error.js';
import type { TreeContext } from '../eval/instance/instance-tree.js';
import type { SweBenchInstance } from '../eval/load/swe-bench-instance.js';
import type { AgentExitStatus } from './exit-status.js';
import { classifyModelError } from './model/classify-model-error.js';
import { prepareAgentSandbox } from './prepare-agent-sandbox.js';
import { renderPrompt } from './prompt-template.js';
import type { Trajectory, TrajectoryStep } from './trajectory-schema.js';
import { type CostOf, isFormatErrorStep, sumUsage, toTrajectoryStep } from './trajectory-step.js';

/** Model calls in a row whose tool calls all failed to parse before the instance ends as `format_error`. */
export const formatErrorsInARow = 3;

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
}

/** Runs the instance. Never throws for anything the instance does: every end is a status. */
export async function runAgentInstance(ctx: AgentInstanceContext): Promise<Trajectory> {
  const { instance } = ctx;
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
  const log = new EvalLog();
  const steps: TrajectoryStep[] = [];
  const durations = new Map<string, number>();
  let session: SandboxSession | undefined;
  let sandbox: Trajectory['sandbox'] = null;
  let baseTree: string | null = null;
  let prompt = '';
  let messages: unknown[] = [];
  let status: AgentExitStatus;
  let error: Trajectory['error'] = null;
  let sandboxFailure: unknown;
  let formatErrors = 0;
  let instanceUsd = 0;
  const overCost = (): boolean =>
    (ctx.costLimitUsd !== null && instanceUsd >= ctx.costLimitUsd) ||
    (ctx.totalCostLimitUsd !== null && ctx.spent.usd >= ctx.totalCostLimitUsd);
  try {
    const acquireStarted = performance.now();
    session = await (await ctx.provider()).acquire({
      signal: controller.signal,
      expectedDurationMs: ctx.timeoutMs,
    });
    const acquireMs = Math.round(performance.now() - acquireStarted);
    const remaining = Math.max(1, ctx.timeoutMs - (performance.now() - started));
    const prepared = await prepareAgentSandbox(
      { ...ctx.tree, instance, signal: controller.signal },
      session,
      log,
      remaining,
    );
    baseTree = prepared.baseTree;
    sandbox = {
      id: session.id,
      provider: session.providerName,
      repo_dir: prepared.repoDir,
      acquire_ms: acquireMs,
    };
    prompt = renderPrompt(ctx.promptTemplate, instance, prepared.repoDir);
    messages = [{ role: 'user', content: prompt }];
    if (overCost()) {
      status = 'cost_limit';
    } else {
      const tools = defaultCodingTools(session.client, prepared.repoDir);
      const result = await generateText({
        model: ctx.model,
        prompt,
        tools: toAISDKTools(tools) as unknown as ToolSet,
        maxRetries: ctx.maxRetries,
        abortSignal: controller.signal,
        stopWhen: [stepCountIs(ctx.stepLimit), () => formatErrors >= formatErrorsInARow, overCost],
        experimental_onToolCallFinish: (event) => {
          durations.set(event.toolCall.toolCallId, event.durationMs);
        },
        onStepFinish: (raw) => {
          const step = toTrajectoryStep(raw, steps.length, durations, ctx.costOf);
          steps.push(step);
          instanceUsd += step.cost_usd ?? 0;
          ctx.spent.usd += step.cost_usd ?? 0;
          messages = [{ role: 'user', content: prompt }, ...raw.response.messages];
          formatErrors = isFormatErrorStep(raw) ? formatErrors + 1 : 0;
          const failed = raw.content.find(
            (part) =>
              part.type === 'tool-error' && SandboxError.isInstance(part.error) && isSandboxDown(part.error),
          );
          if (failed?.type === 'tool-error') {
            sandboxFailure = failed.error;
            controller.abort(failed.error);
          }
          ctx.onStep?.(step);
        },
      });
      const last = result.steps.at(-1);
      if (last === undefined || last.toolCalls.length === 0) status = 'submitted';
      else if (formatErrors >= formatErrorsInARow) status = 'format_error';
      else if (overCost()) status = 'cost_limit';
      else status = 'step_limit';
    }
  } catch (caught) {
    ({ status, error } = failureStatus(caught, { sandboxFailure, aborted: ctx.signal.aborted, timedOut }));
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
  let patch = '';
  let patchError: string | null = null;
  if (session !== undefined && sandbox !== null && baseTree !== null) {
    try {
      const diff = await workspaceDiff(session.client, sandbox.repo_dir, AbortSignal.timeout(120_000), {
        base: baseTree,
      });
      patch = diff.diff;
      patchError = diff.error ?? null;
    } catch (caught) {
      patchError = `the patch could not be taken: ${(caught as Error).message}`;
    }
  }
  if (session !== undefined) {
    await session.release({ destroy: true }).catch((caught: unknown) => {
      process.emitWarning(
        `sandkit run: destroying sandbox ${session?.id} failed: ${(caught as Error).message}`,
      );
    });
  }
  const costs = steps.map((s) => s.cost_usd);
  return {
    format: 'sandkit-trajectory-1',
    instance_id: instance.instance_id,
    model: { name: ctx.modelName, settings: { maxRetries: ctx.maxRetries } },
    limits: {
      step_limit: ctx.stepLimit,
      cost_limit_usd: ctx.costLimitUsd,
      instance_timeout_s: ctx.timeoutMs / 1000,
      total_cost_limit_usd: ctx.totalCostLimitUsd,
    },
    exit_status: status,
    error,
    patch,
    patch_error: patchError,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    duration_ms: Math.round(performance.now() - started),
    sandbox,
    prompt,
    messages,
    steps,
    totals: {
      ...sumUsage(steps.map((s) => s.usage)),
      steps: steps.length,
      tool_calls: steps.reduce((n, s) => n + s.tool_calls.length, 0),
      cost_usd: ctx.costOf === null ? null : costs.reduce<number>((sum, c) => sum + (c ?? 0), 0),
    },
  };
}

/**
 * The status of an instance whose run threw: a model error is classified ({@link classifyModelError}),
 * `context_overflow` for a prompt over the context window, else `model_error` with the kind
 * (`rate_limit`, `server_error`, `auth`) or the error's name.
 */
function failureStatus(
  caught: unknown,
  state: { sandboxFailure: unknown; aborted: boolean; timedOut: boolean },
): { status: AgentExitStatus; error: NonNullable<Trajectory['error']> } {
  const message = (caught as Error)?.message ?? String(caught);
  if (state.sandboxFailure !== undefined)
    return {
      status: 'sandbox_error',
      error: {
        message: (state.sandboxFailure as Error).message,
        kind: (state.sandboxFailure as SandboxError).code,
      },
    };
  if (state.aborted) return { status: 'aborted', error: { message: 'the run was interrupted', kind: null } };
  if (state.timedOut) return { status: 'timeout', error: { message, kind: null } };
  if (caught instanceof StepError)
    return {
      status: caught.kind === 'timeout' ? 'timeout' : 'sandbox_error',
      error: { message, kind: caught.kind },
    };
  if (SandboxError.isInstance(caught))
    return { status: 'sandbox_error', error: { message, kind: caught.code } };
  const kind = classifyModelError(caught);
  if (kind === 'context_overflow') return { status: 'context_overflow', error: { message, kind } };
  return {
    status: 'model_error',
    error: { message, kind: kind === 'other' ? ((caught as Error)?.name ?? null) : kind },
  };
}

/** Codes that mean the sandbox itself is gone (the agent loop's own list). */
const sandboxDownCodes: ReadonlySet<string> = new Set([
  'sandbox_start_failed',
  'sandbox_unavailable',
  'sandbox_destroyed',
  'sandbox_gone',
  'sandbox_expired',
]);

function isSandboxDown(error: SandboxError): boolean {
  return sandboxDownCodes.has(error.code);
}
