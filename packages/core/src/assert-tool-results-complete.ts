import { SandkitError, SandkitErrorCode } from './errors/sandkit-error.js';
import type { ToolCallInput } from './tool-call.js';
import type { ToolCallResult } from './tool-call-result.js';

/**
 * The calls of one assistant turn, in any form: call ids, tool calls as `executeToolCall` takes them,
 * or a whole assistant content/output list (Anthropic `message.content`, Responses `response.output`,
 * Chat `message.tool_calls`): entries that are not tool calls (text, thinking, reasoning) are skipped.
 */
export type AssistantToolCalls = readonly (string | ToolCallInput | { type: string })[];

/** The call ids of an assistant turn, in order. */
export function assistantToolCallIds(calls: AssistantToolCalls): string[] {
  const ids: string[] = [];
  for (const call of calls) {
    if (typeof call === 'string') ids.push(call);
    else if (!('type' in call)) {
      if (typeof call.id === 'string') ids.push(call.id);
    } else if (call.type === 'tool_use' && 'id' in call && typeof call.id === 'string') ids.push(call.id);
    else if (call.type === 'function_call' && 'call_id' in call && typeof call.call_id === 'string')
      ids.push(call.call_id);
    else if (call.type === 'function' && 'function' in call && 'id' in call && typeof call.id === 'string')
      ids.push(call.id);
  }
  return ids;
}

/**
 * Checks that `results` answers every call of the assistant turn exactly once and nothing else, and
 * returns the results in the order of the calls. Run before the next request: Anthropic rejects a
 * turn whose `tool_use` ids lack `tool_result` blocks (and every later request of the conversation),
 * OpenAI rejects a tool call without a `role: "tool"` message / `function_call_output`.
 *
 * @throws SandkitError `incomplete_tool_results` naming each call without a result, each call with
 *   several, and each result that answers no call.
 */
export function assertToolResultsComplete(
  calls: AssistantToolCalls,
  results: readonly ToolCallResult[],
): ToolCallResult[] {
  const ids = assistantToolCallIds(calls);
  const problems: string[] = [];
  const ordered: ToolCallResult[] = [];
  for (const id of ids) {
    const matching = results.filter((result) => result.callId === id);
    if (matching.length === 0) problems.push(`tool call ${id} has no result`);
    else if (matching.length > 1) problems.push(`tool call ${id} has ${matching.length} results`);
    else ordered.push(matching[0]!);
  }
  const known = new Set(ids);
  for (const result of results) {
    if (!known.has(result.callId))
      problems.push(`result ${result.callId} (${result.toolName}) answers no call of this turn`);
  }
  if (problems.length > 0) {
    throw new SandkitError({
      code: SandkitErrorCode.incompleteToolResults,
      message: `Tool results do not match the assistant's tool calls: ${problems.join('; ')}. Every tool call needs exactly one result before the next request (run them with executeToolCalls, which always returns one per call).`,
      details: { callIds: ids, resultIds: results.map((r) => r.callId) },
    });
  }
  return ordered;
}
