import type { SandkitError } from './errors/sandkit-error.js';
import type { ToolContent } from './tool-content.js';

/**
 * The outcome of one tool call, ready for a provider's result format
 * (`toAnthropicToolResultMessage`, `toOpenAIChatToolMessages`, `toOpenAIResponsesToolOutputs`).
 */
export interface ToolCallResult {
  /** The provider's id of the call (`tool_use.id`, chat `tool_calls[i].id`, Responses `call_id`). */
  callId: string;
  /** The name the model called (also when no such tool exists). */
  toolName: string;
  /** `true` when the call failed; `content` then holds the message for the model. */
  isError: boolean;
  /** The tool's validated result; absent when `isError`. */
  output?: unknown;
  /** What the model sees: the tool's `toContent(output)`, or one text part with the error message. */
  content: ToolContent[];
  /** Why the call failed (its `code` says what kind of failure); absent on success. */
  error?: SandkitError;
}

/** An error result for a call: one text part holding the error's message. */
export function toolErrorResult(callId: string, toolName: string, error: SandkitError): ToolCallResult {
  return { callId, toolName, isError: true, content: [{ type: 'text', text: error.message }], error };
}
