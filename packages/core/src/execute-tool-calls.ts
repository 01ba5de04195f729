import type { Tool, ToolEffect } from './define-tool.js';
import { SandboxError } from './errors/sandbox-error.js';
import { SandkitError, SandkitErrorCode } from './errors/sandkit-error.js';
import {
  type ExecuteToolCallOptions,
  normalizeExecuteToolCallOptions,
  runToolCall,
} from './execute-tool-call.js';
import { normalizeToolCall, type ToolCallInput } from './tool-call.js';
import { createToolCallSequencer } from './tool-call-sequencer.js';
import { type ToolCallResult, toolErrorResult } from './tool-call-result.js';
import { listTools, type ToolCollection } from './tool-collection.js';

/**
 * Runs the tool calls of one assistant turn as if in the order the model wrote them, and returns
 * exactly one result per call, in the order of `calls` (what Anthropic and OpenAI require of the next
 * message), also when calls are aborted or their handlers throw. See {@link executeToolCall} for how
 * each call's failures become error results.
 *
 * Order: calls to tools whose `effect` is `'read'` (read_file, list_files, find_files, search_files,
 * git_diff) may overlap one another. Every other call (a write, delete, edit, patch, exec, test run,
 * clone, background-process control, an unknown tool or a tool with no declared effect) is a barrier:
 * it starts after every earlier call has finished, and every later call starts after it. So
 * `write_file g.txt` then `exec cat g.txt` always sees the file.
 *
 * A `SandboxError` with `operatorErrors: 'throw'` (the default) is thrown only after every call has
 * settled, so no call is left running; with `'result'` it becomes that call's error result.
 *
 * @throws SandboxError when the sandbox failed in any call and `operatorErrors` is `'throw'` (the
 *   first in call order).
 * @throws SandkitError `invalid_option` when two tools share a name or an option is invalid.
 */
export async function executeToolCalls(
  tools: ToolCollection,
  calls: readonly ToolCallInput[],
  options?: ExecuteToolCallOptions,
): Promise<ToolCallResult[]> {
  const list = listTools(tools);
  const normalized = normalizeExecuteToolCallOptions(options);
  const sequencer = createToolCallSequencer();
  const results = await Promise.all(
    calls.map((call) =>
      sequencer
        .schedule(toolEffect(list, call), () =>
          runToolCall(list, call, { ...normalized, operatorErrors: 'result' }),
        )
        .catch((error: unknown) => {
          const { callId, toolName } = normalizeToolCall(call);
          return toolErrorResult(
            callId,
            toolName,
            new SandkitError({
              code: SandkitErrorCode.internal,
              message: `Tool "${toolName}" failed unexpectedly: ${error instanceof Error ? error.message : String(error)}.`,
              cause: error,
            }),
          );
        }),
    ),
  );
  if (normalized.operatorErrors === 'throw') {
    const failed = results.find((result) => SandboxError.isInstance(result.error));
    if (failed?.error) throw failed.error;
  }
  return results;
}

/** The effect of the called tool; `undefined` (a barrier) when no tool has that name. */
function toolEffect(list: readonly Tool[], call: ToolCallInput): ToolEffect | undefined {
  const { toolName } = normalizeToolCall(call);
  return list.find((tool) => tool.name === toolName)?.effect;
}
