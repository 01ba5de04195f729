/**
 * A `sandkit run` trajectory (`<id>/<id>.traj.json`, `sandkit-trajectory-1`) as the report shows
 * it: per step the model's text, each tool call with its arguments and result (cut to
 * {@link maxToolTextChars}; the file keeps them whole), errors, tokens and cost; the final patch.
 * @module
 */
import type { Trajectory } from '../../run/trajectory-schema.js';
import type { ViewToolCall, ViewTrajectory } from '../model/view-data.js';
import { cutPatch } from './read-graded-instance.js';

/** Characters of a tool call's arguments or result a report embeds. */
export const maxToolTextChars = 8 * 1024;

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'null');
const cut = (text: string): string =>
  text.length <= maxToolTextChars
    ? text
    : `${text.slice(0, maxToolTextChars)}\n… (${text.length - maxToolTextChars} more characters in the trajectory file)`;

/** The report's view of a trajectory; `href` the file's link from the report, or `null`. */
export function viewTrajectory(trajectory: Trajectory, href: string | null): ViewTrajectory {
  return {
    exitStatus: trajectory.exit_status,
    error:
      trajectory.error === null ? null : `${trajectory.error.kind ?? 'error'}: ${trajectory.error.message}`,
    model: trajectory.model.name,
    patch: cutPatch(trajectory.patch),
    href,
    steps: trajectory.steps.map((step) => ({
      index: step.index,
      text: step.text,
      reasoning: step.reasoning,
      finishReason: step.finish_reason,
      inputTokens: step.usage.input_tokens,
      outputTokens: step.usage.output_tokens,
      costUsd: step.cost_usd,
      toolCalls: step.tool_calls.map((call): ViewToolCall => {
        const result = asText(call.result);
        return {
          name: call.name,
          args: cut(asText(call.args)),
          result: cut(result),
          resultChars: result.length,
          isError: call.is_error,
          error: call.error,
          durationMs: call.duration_ms,
        };
      }),
    })),
  };
}
