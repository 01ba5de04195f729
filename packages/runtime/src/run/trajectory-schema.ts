/**
 * The trajectory of one instance of `sandkit run`, `<out>/<instance_id>/<instance_id>.traj.json`:
 * sandkit's own format (`format: 'sandkit-trajectory-1'`), validated by {@link trajectorySchema}
 * whenever it is written or read. Token counts are as the provider reported them (`null` where it
 * reported none); costs are in USD (`null` without a known price).
 * @module
 */
import { z } from 'zod';
import { agentExitStatusList } from './exit-status.js';

/** Token counts of one model call (or their sum). */
export const tokenUsageSchema = z.object({
  input_tokens: z.number().int().nonnegative().nullable(),
  output_tokens: z.number().int().nonnegative().nullable(),
  /** Input tokens read from the provider's prompt cache (part of `input_tokens`). */
  cached_input_tokens: z.number().int().nonnegative().nullable(),
  /** Input tokens written to the prompt cache (Anthropic). */
  cache_write_tokens: z.number().int().nonnegative().nullable(),
  /** Output tokens spent reasoning (part of `output_tokens`). */
  reasoning_tokens: z.number().int().nonnegative().nullable(),
});

/** One tool call of a step, with its one result. */
export const trajectoryToolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The arguments as the model sent them (parsed JSON; the raw text when it was not JSON). */
  args: z.unknown(),
  /** The tool's result; `null` when `is_error`. */
  result: z.unknown(),
  is_error: z.boolean(),
  /** The error text the model got, when `is_error`. */
  error: z.string().nullable(),
  /** Wall time of the tool's execution in ms; `null` when it never ran (malformed call, unknown tool). */
  duration_ms: z.number().nonnegative().nullable(),
});

/** One model call and what its tool calls returned. */
export const trajectoryStepSchema = z.object({
  /** 0-based. */
  index: z.number().int().nonnegative(),
  /** ISO 8601 time the step (model call and tools) finished. */
  finished_at: z.string(),
  /** The AI SDK's finish reason (`stop`, `tool-calls`, `length`, …). */
  finish_reason: z.string(),
  text: z.string(),
  reasoning: z.string().nullable(),
  tool_calls: z.array(trajectoryToolCallSchema),
  usage: tokenUsageSchema,
  /** USD of this model call; `null` without a price. */
  cost_usd: z.number().nonnegative().nullable(),
});

const sandboxSchema = z
  .object({ id: z.string(), provider: z.string(), repo_dir: z.string(), acquire_ms: z.number() })
  .nullable();

const errorSchema = z.object({ message: z.string(), kind: z.string().nullable() }).nullable();

/**
 * An earlier attempt at the instance whose sandbox's infrastructure failed (it could not be
 * created, or died under the tools), after which the instance ran again on a fresh sandbox.
 */
export const trajectoryAttemptSchema = z.object({
  /** 1-based. */
  attempt: z.number().int().positive(),
  /** Always `sandbox_error` today. */
  exit_status: z.enum(agentExitStatusList as [string, ...string[]]),
  error: errorSchema,
  started_at: z.string(),
  finished_at: z.string(),
  duration_ms: z.number().nonnegative(),
  /** `null` when no sandbox was had. */
  sandbox: sandboxSchema,
  messages: z.array(z.unknown()),
  steps: z.array(trajectoryStepSchema),
  /** What the attempt had changed when it failed (`''` when the sandbox was gone). */
  patch: z.string(),
  patch_error: z.string().nullable(),
});

/** The whole trajectory. */
export const trajectorySchema = z.object({
  format: z.literal('sandkit-trajectory-1'),
  instance_id: z.string().min(1),
  model: z.object({
    /** As given (`anthropic:claude-…`), and in preds.json's `model_name_or_path`. */
    name: z.string(),
    /** The settings the model calls were made with (retries, output cap, …). */
    settings: z.record(z.string(), z.unknown()),
  }),
  limits: z.object({
    step_limit: z.number().int().positive(),
    cost_limit_usd: z.number().positive().nullable(),
    instance_timeout_s: z.number().positive(),
    total_cost_limit_usd: z.number().positive().nullable(),
  }),
  exit_status: z.enum(agentExitStatusList as [string, ...string[]]),
  /** What ended the instance when it was no `submitted`, `step_limit` or `cost_limit`. */
  error: errorSchema,
  /** `git diff` of the repository against its prepared state: tracked and new files, never `.sandkit/`. */
  patch: z.string(),
  /** Why the patch could not be taken (the sandbox was gone); `null` when it was. */
  patch_error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string(),
  duration_ms: z.number().nonnegative(),
  sandbox: sandboxSchema,
  /** The user message (the rendered prompt template). */
  prompt: z.string(),
  /** The conversation as the AI SDK keeps it (`ModelMessage`s): the prompt, then every response and tool result. */
  messages: z.array(z.unknown()),
  /** The last attempt's steps (the one that gave `exit_status` and `patch`). */
  steps: z.array(trajectoryStepSchema),
  /**
   * Earlier attempts, each on its own sandbox, that ended in an infrastructure failure; `[]` when
   * the first attempt was the last (at most one retry). Absent in files written before retries.
   */
  attempts: z.array(trajectoryAttemptSchema).default([]),
  /** Sums over every attempt (what was paid), not only `steps`. */
  totals: tokenUsageSchema.extend({
    steps: z.number().int().nonnegative(),
    tool_calls: z.number().int().nonnegative(),
    cost_usd: z.number().nonnegative().nullable(),
  }),
});

/** A trajectory (see {@link trajectorySchema}). */
export type Trajectory = z.infer<typeof trajectorySchema>;
/** An earlier attempt of a {@link Trajectory}. */
export type TrajectoryAttempt = z.infer<typeof trajectoryAttemptSchema>;
/** One step of a {@link Trajectory}. */
export type TrajectoryStep = z.infer<typeof trajectoryStepSchema>;
/** Token counts of a step. */
export type TokenUsage = z.infer<typeof tokenUsageSchema>;
