/**
 * The shapes of a tool call `executeToolCall` accepts, and their normalisation to one form.
 * @module
 */
import { randomUUID } from 'node:crypto';

/** An Anthropic Messages `tool_use` content block. */
export interface AnthropicToolUseCall {
  type: 'tool_use';
  id: string;
  name: string;
  /** The arguments object (already parsed by the API). A JSON string is parsed like OpenAI `arguments`. */
  input: unknown;
}

/** A tool call of an OpenAI Chat Completions assistant message (`message.tool_calls[i]`). */
export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: {
    name: string;
    /** The arguments as a JSON string (`""` is taken as `{}`). An already parsed object is accepted too. */
    arguments: string | object;
  };
}

/** An OpenAI Responses `function_call` output item. */
export interface OpenAIResponsesFunctionCall {
  type: 'function_call';
  /** The id to answer with in `function_call_output` (not the item's `id`). */
  call_id: string;
  name: string;
  /** The arguments as a JSON string (`""` is taken as `{}`). An already parsed object is accepted too. */
  arguments: string | object;
  id?: string;
}

/** A provider-neutral call: a name, the arguments object, and optionally the call's id. */
export interface PlainToolCall {
  name: string;
  input: unknown;
  /** The call's id. @default a generated `call_<uuid>` */
  id?: string;
}

/** Any tool call `executeToolCall` accepts. */
export type ToolCallInput =
  | AnthropicToolUseCall
  | OpenAIChatToolCall
  | OpenAIResponsesFunctionCall
  | PlainToolCall;

/** A call in one form: its id, the tool's name, and either the arguments or why they could not be read. */
export type NormalizedToolCall =
  | { callId: string; toolName: string; input: unknown; parseError?: undefined }
  | { callId: string; toolName: string; input?: undefined; parseError: string };

/** Reads any accepted call shape; JSON argument strings are parsed here (a parse failure is reported, not thrown). */
export function normalizeToolCall(call: ToolCallInput): NormalizedToolCall {
  if ('function' in call && typeof call.function === 'object' && call.function !== null) {
    return fromArguments(call.id, call.function.name, call.function.arguments);
  }
  if ('type' in call && call.type === 'function_call') {
    return fromArguments(call.call_id, call.name, call.arguments);
  }
  const plain = call as AnthropicToolUseCall | PlainToolCall;
  const callId = plain.id ?? `call_${randomUUID()}`;
  // A JSON string (e.g. accumulated `input_json_delta` text) is read like OpenAI's `arguments`: a tool's
  // input is always an object, so a string can only have been meant as its JSON.
  if (typeof plain.input === 'string') return fromArguments(callId, plain.name, plain.input);
  return { callId, toolName: plain.name, input: plain.input };
}

/** The call id of any accepted call shape (`id`, or `call_id` for Responses); `undefined` when it has none. */
export function toolCallId(call: ToolCallInput): string | undefined {
  if ('type' in call && call.type === 'function_call') return call.call_id;
  return call.id;
}

function fromArguments(callId: string, toolName: string, args: string | object): NormalizedToolCall {
  if (typeof args !== 'string') return { callId, toolName, input: args };
  if (args.trim() === '') return { callId, toolName, input: {} };
  try {
    return { callId, toolName, input: JSON.parse(args) as unknown };
  } catch (error) {
    return { callId, toolName, parseError: (error as Error).message };
  }
}
