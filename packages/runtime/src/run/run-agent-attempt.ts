/**
 * One attempt at an instance of `sandkit run`: a fresh sandbox from the provider, prepared as
 * `sandkit eval` prepares it, the model with sandkit's tools rooted at the repository, and the
 * patch taken whatever ended it. The sandbox is destroyed on every path. `runAgentInstance` makes
 * a second attempt on a fresh sandbox when the first one's infrastructure failed.
 * @module
 */
import { SandboxError, type SandboxSession, toAISDKTools } from '@sandkit/core';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { defaultCodingTools } from '../agent/default-coding-tools.js';
import { workspaceDiff } from '../agent/workspace-diff.js';
import { EvalLog } from '../eval/instance/eval-log.js';
import { StepError } from '../eval/instance/eval-step-error.js';
import type { AgentExitStatus } from './exit-status.js';
import { classifyModelError } from './model/classify-model-error.js';
import { prepareAgentSandbox } from './prepare-agent-sandbox.js';
import { renderPrompt } from './prompt-template.js';
import type { AgentInstanceContext } from './agent-instance-context.js';
import type { Trajectory, TrajectoryStep } from './trajectory-schema.js';
import { isFormatErrorStep, toTrajectoryStep } from './trajectory-step.js';

/** Model calls in a row whose tool calls all failed to parse before the instance ends as `format_error`. */
export const formatErrorsInARow = 3;

/** What the attempts of one instance share: its abort, its deadline, its spending. */
export interface AttemptState {
  /** Aborts every attempt: Ctrl-C, the instance timeout. (A dead sandbox aborts only its own attempt.) */
  signal: AbortSignal;
  /** When the instance's wall clock started (`performance.now()`). */
  started: number;
  timedOut: () => boolean;
  /** USD spent by this instance over all its attempts. */
  instanceUsd: number;
}

/** How one attempt ended. */
export interface AttemptOutcome {
  status: AgentExitStatus;
  error: Trajectory['error'];
  /** `true` when the sandbox's infrastructure failed (create, or the sandbox died): worth a fresh sandbox. */
  infrastructure: boolean;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  sandbox: Trajectory['sandbox'];
  prompt: string;
  messages: unknown[];
  steps: TrajectoryStep[];
  patch: string;
  patchError: string | null;
}

/** Runs one attempt. Never throws for anything the instance does: every end is a status. */
export async function runAgentAttempt(
  ctx: AgentInstanceContext,
  state: AttemptState,
): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const attemptStarted = performance.now();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(state.signal.reason);
  if (state.signal.aborted) onAbort();
  else state.signal.addEventListener('abort', onAbort, { once: true });
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
  let infrastructure = false;
  let sandboxFailure: SandboxError | undefined;
  let formatErrors = 0;
  const overCost = (): boolean =>
    (ctx.costLimitUsd !== null && state.instanceUsd >= ctx.costLimitUsd) ||
    (ctx.totalCostLimitUsd !== null && ctx.spent.usd >= ctx.totalCostLimitUsd);
  try {
    const acquireStarted = performance.now();
    session = await (await ctx.provider()).acquire({
      signal: controller.signal,
      expectedDurationMs: ctx.timeoutMs,
    });
    const acquireMs = Math.round(performance.now() - acquireStarted);
    const remaining = Math.max(1, ctx.timeoutMs - (performance.now() - state.started));
    const prepared = await prepareAgentSandbox(
      { ...ctx.tree, instance: ctx.instance, signal: controller.signal },
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
    prompt = renderPrompt(ctx.promptTemplate, ctx.instance, prepared.repoDir);
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
          state.instanceUsd += step.cost_usd ?? 0;
          ctx.spent.usd += step.cost_usd ?? 0;
          messages = [{ role: 'user', content: prompt }, ...raw.response.messages];
          formatErrors = isFormatErrorStep(raw) ? formatErrors + 1 : 0;
          const failed = raw.content.find(
            (part) =>
              part.type === 'tool-error' && SandboxError.isInstance(part.error) && isSandboxDown(part.error),
          );
          if (failed?.type === 'tool-error') {
            sandboxFailure = failed.error as SandboxError;
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
    ({ status, error, infrastructure } = failureStatus(caught, {
      sandboxFailure,
      aborted: ctx.signal.aborted,
      timedOut: state.timedOut(),
    }));
  } finally {
    state.signal.removeEventListener('abort', onAbort);
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
    const id = session.id;
    await session.release({ destroy: true }).catch((caught: unknown) => {
      process.emitWarning(`sandkit run: destroying sandbox ${id} failed: ${(caught as Error).message}`);
    });
  }
  return {
    status,
    error,
    infrastructure,
    startedAt,
    finishedAt: new Date(),
    durationMs: Math.round(performance.now() - attemptStarted),
    sandbox,
    prompt,
    messages,
    steps,
    patch,
    patchError,
  };
}

/**
 * The status of an attempt whose run threw: a model error is classified ({@link classifyModelError}),
 * `context_overflow` for a prompt over the context window, else `model_error` with the kind
 * (`rate_limit`, `server_error`, `auth`) or the error's name. A sandbox that could not be created
 * or died is `sandbox_error` with `infrastructure`; a preparation step that failed (repository,
 * `setup_cmd`) is `sandbox_error` without it (a fresh sandbox would fail the same way).
 */
function failureStatus(
  caught: unknown,
  state: { sandboxFailure: SandboxError | undefined; aborted: boolean; timedOut: boolean },
): { status: AgentExitStatus; error: NonNullable<Trajectory['error']>; infrastructure: boolean } {
  const message = (caught as Error)?.message ?? String(caught);
  if (state.sandboxFailure !== undefined)
    return {
      status: 'sandbox_error',
      error: { message: state.sandboxFailure.message, kind: state.sandboxFailure.code },
      infrastructure: true,
    };
  if (state.aborted)
    return {
      status: 'aborted',
      error: { message: 'the run was interrupted', kind: null },
      infrastructure: false,
    };
  if (state.timedOut) return { status: 'timeout', error: { message, kind: null }, infrastructure: false };
  if (caught instanceof StepError)
    return {
      status: caught.kind === 'timeout' ? 'timeout' : 'sandbox_error',
      error: { message, kind: caught.kind },
      infrastructure: false,
    };
  if (SandboxError.isInstance(caught))
    return { status: 'sandbox_error', error: { message, kind: caught.code }, infrastructure: true };
  const kind = classifyModelError(caught);
  if (kind === 'context_overflow')
    return { status: 'context_overflow', error: { message, kind }, infrastructure: false };
  return {
    status: 'model_error',
    error: { message, kind: kind === 'other' ? ((caught as Error)?.name ?? null) : kind },
    infrastructure: false,
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
