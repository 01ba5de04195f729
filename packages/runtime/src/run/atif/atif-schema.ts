/**
 * Harbor's Agent Trajectory Interchange Format (ATIF), version 1.7, as a Zod schema: what
 * {@link toAtifTrajectory} writes, checked with the rules Harbor's validator enforces.
 *
 * Written from the format's published definition: the RFC
 * (https://github.com/harbor-framework/harbor/blob/main/rfcs/0001-trajectory-format.md, v1.7) and
 * Harbor's Pydantic models (`src/harbor/models/trajectories/`), which forbid unknown fields on
 * every object (`model_config = {"extra": "forbid"}`):
 * - `Trajectory` (trajectory.py): `schema_version` `ATIF-v1.0` … `ATIF-v1.7`, optional
 *   `session_id` and `trajectory_id` (both since 1.7), `agent`, `steps` (at least one), `notes`,
 *   `final_metrics`, `continued_trajectory_ref`, `extra`, `subagent_trajectories`; step ids run
 *   1, 2, 3 … in order; within a step, tool call ids are unique and every observation result's
 *   `source_call_id` names one of the step's tool calls.
 * - `Agent` (agent.py): `name`, `version` required; `model_name`, `tool_definitions`, `extra`.
 * - `Step` (step.py): `step_id` ≥ 1, `timestamp` (ISO 8601), `source` `system` | `user` | `agent`,
 *   `message` (text or content parts, required), `model_name`, `reasoning_effort`,
 *   `reasoning_content`, `tool_calls`, `observation`, `metrics`, `is_copied_context`,
 *   `llm_call_count` (≥ 0, since 1.7), `extra`. `model_name`, `reasoning_effort`,
 *   `reasoning_content`, `tool_calls` and `metrics` only on agent steps; an agent step with
 *   `llm_call_count: 0` has no `metrics` and no `reasoning_content`.
 * - `ToolCall` (tool_call.py): `tool_call_id`, `function_name`, `arguments` (an object), `extra`.
 * - `Observation` / `ObservationResult` (observation_result.py): `results[]` of
 *   `source_call_id`, `content` (text or parts), `subagent_trajectory_ref`, `extra` (1.7).
 * - `Metrics` (metrics.py): `prompt_tokens`, `completion_tokens`, `cached_tokens`, `cost_usd`,
 *   `prompt_token_ids`, `completion_token_ids`, `logprobs`, `extra`.
 * - `FinalMetrics` (final_metrics.py): `total_prompt_tokens`, `total_completion_tokens`,
 *   `total_cached_tokens`, `total_cost_usd`, `total_steps` (≥ 0), `extra`.
 *
 * Absent and `null` optional fields mean the same (Harbor writes with `exclude_none`).
 * @module
 */
import { z } from 'zod';

/** The version {@link toAtifTrajectory} writes. */
export const atifSchemaVersion = 'ATIF-v1.7';

const extra = z.record(z.string(), z.unknown()).nullish();
const count = z.number().int().nonnegative().nullish();

const isoTimestamp = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'not an ISO 8601 timestamp' });

const contentPart = z.strictObject({
  type: z.enum(['text', 'image']),
  text: z.string().nullish(),
  source: z.record(z.string(), z.unknown()).nullish(),
});
const content = z.union([z.string(), z.array(contentPart)]);

/** One tool call of an agent step. */
export const atifToolCallSchema = z.strictObject({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  extra,
});

const subagentRef = z.strictObject({
  trajectory_id: z.string().nullish(),
  trajectory_path: z.string().nullish(),
  session_id: z.string().nullish(),
  extra,
});

/** One result of a step's observation. */
export const atifObservationResultSchema = z.strictObject({
  source_call_id: z.string().nullish(),
  content: content.nullish(),
  subagent_trajectory_ref: z.array(subagentRef).nullish(),
  extra,
});

/** Token counts and cost of one step's model call(s). */
export const atifMetricsSchema = z.strictObject({
  prompt_tokens: count,
  completion_tokens: count,
  cached_tokens: count,
  cost_usd: z.number().nullish(),
  prompt_token_ids: z.array(z.number().int()).nullish(),
  completion_token_ids: z.array(z.number().int()).nullish(),
  logprobs: z.array(z.number()).nullish(),
  extra,
});

const agentOnly = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const;

/** One step: a system or user message, or an agent turn with its tool calls and their results. */
export const atifStepSchema = z
  .strictObject({
    step_id: z.number().int().min(1),
    timestamp: isoTimestamp.nullish(),
    source: z.enum(['system', 'user', 'agent']),
    model_name: z.string().nullish(),
    reasoning_effort: z.union([z.string(), z.number()]).nullish(),
    message: content,
    reasoning_content: z.string().nullish(),
    tool_calls: z.array(atifToolCallSchema).nullish(),
    observation: z.strictObject({ results: z.array(atifObservationResultSchema) }).nullish(),
    metrics: atifMetricsSchema.nullish(),
    is_copied_context: z.boolean().nullish(),
    llm_call_count: count,
    extra,
  })
  .superRefine((step, ctx) => {
    if (step.source !== 'agent') {
      for (const field of agentOnly)
        if (step[field] !== undefined && step[field] !== null)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `only applicable when source is 'agent', but source is '${step.source}'`,
          });
    }
    if (step.source === 'agent' && step.llm_call_count === 0) {
      for (const field of ['metrics', 'reasoning_content'] as const)
        if (step[field] !== undefined && step[field] !== null)
          ctx.addIssue({ code: 'custom', path: [field], message: 'must be absent when llm_call_count is 0' });
    }
  });

/** Sums over the whole trajectory. */
export const atifFinalMetricsSchema = z.strictObject({
  total_prompt_tokens: count,
  total_completion_tokens: count,
  total_cached_tokens: count,
  total_cost_usd: z.number().nullish(),
  total_steps: count,
  extra,
});

/** The agent that made the trajectory. */
export const atifAgentSchema = z.strictObject({
  name: z.string(),
  version: z.string(),
  model_name: z.string().nullish(),
  tool_definitions: z.array(z.record(z.string(), z.unknown())).nullish(),
  extra,
});

/** A whole ATIF trajectory document (embedded subagent trajectories are not checked further). */
export const atifTrajectorySchema = z
  .strictObject({
    schema_version: z.enum([
      'ATIF-v1.0',
      'ATIF-v1.1',
      'ATIF-v1.2',
      'ATIF-v1.3',
      'ATIF-v1.4',
      'ATIF-v1.5',
      'ATIF-v1.6',
      'ATIF-v1.7',
    ]),
    session_id: z.string().nullish(),
    trajectory_id: z.string().nullish(),
    agent: atifAgentSchema,
    steps: z.array(atifStepSchema).min(1),
    notes: z.string().nullish(),
    final_metrics: atifFinalMetricsSchema.nullish(),
    continued_trajectory_ref: z.string().nullish(),
    extra,
    subagent_trajectories: z.array(z.record(z.string(), z.unknown())).nullish(),
  })
  .superRefine((trajectory, ctx) => {
    trajectory.steps.forEach((step, i) => {
      if (step.step_id !== i + 1)
        ctx.addIssue({
          code: 'custom',
          path: ['steps', i, 'step_id'],
          message: `expected ${i + 1} (sequential from 1), got ${step.step_id}`,
        });
      const ids = new Set<string>();
      for (const call of step.tool_calls ?? []) {
        if (ids.has(call.tool_call_id))
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'tool_calls'],
            message: `duplicate tool_call_id '${call.tool_call_id}'`,
          });
        ids.add(call.tool_call_id);
      }
      for (const result of step.observation?.results ?? []) {
        const source = result.source_call_id;
        if (source !== undefined && source !== null && !ids.has(source))
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'observation'],
            message: `source_call_id '${source}' is not among step ${step.step_id}'s tool_calls`,
          });
      }
    });
  });

/** An ATIF trajectory (see {@link atifTrajectorySchema}). */
export type AtifTrajectory = z.infer<typeof atifTrajectorySchema>;
/** One step of an {@link AtifTrajectory}. */
export type AtifStep = z.infer<typeof atifStepSchema>;
