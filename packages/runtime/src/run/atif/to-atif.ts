/**
 * `toAtifTrajectory`: a `sandkit-trajectory-1` trajectory as an ATIF v1.7 document (Harbor's
 * Agent Trajectory Interchange Format, see `atif-schema.ts`), for viewers, SFT and RL pipelines
 * that read ATIF. `sandkit run --atif` writes one beside each trajectory.
 *
 * The mapping:
 * - the rendered prompt is step 1 (`source: user`); each model call is one agent step
 *   (`llm_call_count: 1`) with its text, reasoning, tool calls (`arguments` is the parsed JSON
 *   object; arguments that were not a JSON object are kept as text in the call's
 *   `extra.raw_arguments`, with `arguments: {}`), and one observation result per call (the
 *   result as JSON text, or the error text the model got; `extra.is_error`, `extra.duration_ms`);
 * - `metrics`: `prompt_tokens` = input tokens (cached included, as ATIF counts them),
 *   `completion_tokens`, `cached_tokens`, `cost_usd`; cache writes and reasoning tokens in `extra`;
 * - an earlier attempt whose sandbox failed comes first, followed by a `system` step that says so,
 *   and the prompt again for the attempt that ran on the fresh sandbox;
 * - the exit status, error, patch, limits and instance id go in the root `extra`
 *   (ATIF has no field for them).
 *
 * Absent counts (the provider reported none) are left out, never written as 0.
 * @module
 */
import type { Trajectory, TrajectoryStep } from '../trajectory-schema.js';
import {
  type AtifStep,
  type AtifTrajectory,
  atifSchemaVersion,
  atifTrajectorySchema,
} from './atif-schema.js';

/** The agent name and version written in `agent`. */
export const atifAgent = { name: 'sandkit', version: '0.1.0' } as const;

/**
 * Converts a trajectory; the result is checked against {@link atifTrajectorySchema}.
 * @throws ZodError only on a bug of this exporter (the output failing its own schema).
 */
export function toAtifTrajectory(trajectory: Trajectory): AtifTrajectory {
  const steps: Omit<AtifStep, 'step_id'>[] = [];
  const prompt = (text: string, at: string): void => {
    steps.push({ source: 'user', message: text, timestamp: at });
  };
  for (const attempt of trajectory.attempts) {
    prompt(promptOf(attempt.messages, trajectory.prompt), attempt.started_at);
    for (const step of attempt.steps) steps.push(agentStep(step, attempt.attempt));
    steps.push({
      source: 'system',
      message: `The sandbox failed (${attempt.error?.message ?? 'unknown'}); the instance ran again on a fresh sandbox.`,
      timestamp: attempt.finished_at,
      extra: { attempt: attempt.attempt, exit_status: attempt.exit_status, error: attempt.error },
    });
  }
  prompt(trajectory.prompt, trajectory.started_at);
  const attempt = trajectory.attempts.length + 1;
  for (const step of trajectory.steps) steps.push(agentStep(step, attempt));
  const totals = trajectory.totals;
  const document = {
    schema_version: atifSchemaVersion,
    session_id: `sandkit-run/${trajectory.instance_id}/${trajectory.started_at}`,
    trajectory_id: `${trajectory.instance_id}/${trajectory.started_at}`,
    agent: {
      ...atifAgent,
      model_name: trajectory.model.name,
      extra: { settings: trajectory.model.settings },
    },
    steps: steps.map((step, i) => ({ step_id: i + 1, ...step })),
    notes: `Exported by sandkit from ${trajectory.format}; exit status and patch are in extra.`,
    final_metrics: withoutNulls({
      total_prompt_tokens: totals.input_tokens,
      total_completion_tokens: totals.output_tokens,
      total_cached_tokens: totals.cached_input_tokens,
      total_cost_usd: totals.cost_usd,
      total_steps: steps.length,
      extra: withoutNulls({
        model_calls: totals.steps,
        tool_calls: totals.tool_calls,
        cache_write_tokens: totals.cache_write_tokens,
        reasoning_tokens: totals.reasoning_tokens,
      }),
    }),
    extra: {
      instance_id: trajectory.instance_id,
      exit_status: trajectory.exit_status,
      error: trajectory.error,
      patch: trajectory.patch,
      patch_error: trajectory.patch_error,
      limits: trajectory.limits,
      sandbox: trajectory.sandbox,
      started_at: trajectory.started_at,
      finished_at: trajectory.finished_at,
      duration_ms: trajectory.duration_ms,
    },
  };
  return atifTrajectorySchema.parse(document);
}

function agentStep(step: TrajectoryStep, attempt: number): Omit<AtifStep, 'step_id'> {
  const calls = step.tool_calls;
  return withoutNulls({
    source: 'agent' as const,
    timestamp: step.finished_at,
    message: step.text,
    reasoning_content: step.reasoning,
    llm_call_count: 1,
    tool_calls:
      calls.length === 0
        ? null
        : calls.map((call) => {
            const object = typeof call.args === 'object' && call.args !== null && !Array.isArray(call.args);
            return {
              tool_call_id: call.id,
              function_name: call.name,
              arguments: object ? (call.args as Record<string, unknown>) : {},
              ...(object ? {} : { extra: { raw_arguments: call.args } }),
            };
          }),
    observation:
      calls.length === 0
        ? null
        : {
            results: calls.map((call) => ({
              source_call_id: call.id,
              content: call.is_error ? (call.error ?? '') : JSON.stringify(call.result),
              extra: { is_error: call.is_error, duration_ms: call.duration_ms },
            })),
          },
    metrics: withoutNulls({
      prompt_tokens: step.usage.input_tokens,
      completion_tokens: step.usage.output_tokens,
      cached_tokens: step.usage.cached_input_tokens,
      cost_usd: step.cost_usd,
      extra: withoutNulls({
        cache_write_tokens: step.usage.cache_write_tokens,
        reasoning_tokens: step.usage.reasoning_tokens,
      }),
    }),
    extra: { index: step.index, finish_reason: step.finish_reason, attempt },
  });
}

/** The first user message of an attempt's conversation, else the trajectory's prompt. */
function promptOf(messages: readonly unknown[], fallback: string): string {
  const first = messages[0] as { role?: unknown; content?: unknown } | undefined;
  return first?.role === 'user' && typeof first.content === 'string' ? first.content : fallback;
}

/** The object without its `null` fields (ATIF writes absent, as Harbor's `exclude_none` does). */
function withoutNulls<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
}
