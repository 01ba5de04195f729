/**
 * One AI SDK step (`StepResult`) as a trajectory step: its text, its tool calls each with its one
 * result and duration, its token usage and cost.
 * @module
 */
import type { LanguageModelUsage, StepResult, ToolSet } from 'ai';
import type { TokenUsage, TrajectoryStep } from './trajectory-schema.js';

/** USD of one model call's usage; `null` when the model has no known price. */
export type CostOf = ((usage: LanguageModelUsage) => number) | null;

/** The step as recorded; `durations` holds each executed call's wall time by tool call id. */
export function toTrajectoryStep(
  raw: StepResult<ToolSet>,
  index: number,
  durations: ReadonlyMap<string, number>,
  costOf: CostOf,
): TrajectoryStep {
  return {
    index,
    finished_at: new Date().toISOString(),
    finish_reason: raw.finishReason,
    text: raw.text,
    reasoning: raw.reasoningText ?? null,
    tool_calls: raw.toolCalls.map((call) => {
      const done = raw.content.find(
        (part) =>
          (part.type === 'tool-result' || part.type === 'tool-error') && part.toolCallId === call.toolCallId,
      );
      const base = {
        id: call.toolCallId,
        name: call.toolName,
        args: call.input,
        duration_ms: durations.get(call.toolCallId) ?? null,
      };
      if (done?.type === 'tool-result')
        return { ...base, result: done.output ?? null, is_error: false, error: null };
      const error =
        done?.type === 'tool-error'
          ? message(done.error)
          : 'invalid' in call && call.invalid
            ? message(call.error)
            : 'the tool call got no result';
      return { ...base, result: null, is_error: true, error };
    }),
    usage: toTokenUsage(raw.usage),
    cost_usd: costOf === null ? null : costOf(raw.usage),
  };
}

/** `true` when the step called tools and none of them could run (malformed arguments, unknown tool). */
export function isFormatErrorStep(raw: StepResult<ToolSet>): boolean {
  return (
    raw.toolCalls.length > 0 && raw.toolCalls.every((call) => 'invalid' in call && call.invalid === true)
  );
}

/** The AI SDK's usage in the trajectory's names. */
export function toTokenUsage(usage: LanguageModelUsage): TokenUsage {
  return {
    input_tokens: usage.inputTokens ?? null,
    output_tokens: usage.outputTokens ?? null,
    cached_input_tokens: usage.inputTokenDetails?.cacheReadTokens ?? null,
    cache_write_tokens: usage.inputTokenDetails?.cacheWriteTokens ?? null,
    reasoning_tokens: usage.outputTokenDetails?.reasoningTokens ?? null,
  };
}

/** The sum of token counts (a count no step reported stays `null`). */
export function sumUsage(usages: readonly TokenUsage[]): TokenUsage {
  const sum = (key: keyof TokenUsage): number | null =>
    usages.some((u) => u[key] !== null) ? usages.reduce((total, u) => total + (u[key] ?? 0), 0) : null;
  return {
    input_tokens: sum('input_tokens'),
    output_tokens: sum('output_tokens'),
    cached_input_tokens: sum('cached_input_tokens'),
    cache_write_tokens: sum('cache_write_tokens'),
    reasoning_tokens: sum('reasoning_tokens'),
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
