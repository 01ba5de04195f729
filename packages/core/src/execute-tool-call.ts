/**
 * Runs one model-issued tool call, whatever provider shape it comes in, and turns every failure the
 * model can act on into an error result. Only a failing sandbox is thrown (the operator must act).
 * @module
 */
import type { Tool } from './define-tool.js';
import { dropNullOptionals } from './drop-null-optionals.js';
import { SandboxError } from './errors/sandbox-error.js';
import { SandkitError, SandkitErrorCode } from './errors/sandkit-error.js';
import { ToolArgumentError } from './errors/tool-argument-error.js';
import { ToolError } from './errors/tool-error.js';
import { ToolOutputError } from './errors/tool-output-error.js';
import { normalizeToolCall, type ToolCallInput } from './tool-call.js';
import { type ToolCallResult, toolErrorResult } from './tool-call-result.js';
import { listTools, type ToolCollection } from './tool-collection.js';

/** Options of {@link executeToolCall} and {@link executeToolCalls}. */
export interface ExecuteToolCallOptions {
  /** Cancels the call: the tool gets it (and kills its commands); the result is an "aborted" error result. */
  signal?: AbortSignal;
  /**
   * What a `SandboxError` (the sandbox itself failed) does: `'throw'` it to the caller, or turn it into an
   * error result (so every call still gets a result, e.g. to keep a transcript valid before stopping).
   * @default 'throw'
   */
  operatorErrors?: 'throw' | 'result';
}

/** {@link ExecuteToolCallOptions} with every default filled. */
export interface NormalizedExecuteToolCallOptions {
  signal: AbortSignal | undefined;
  operatorErrors: 'throw' | 'result';
}

/**
 * Fills the defaults of {@link ExecuteToolCallOptions}.
 * @throws SandkitError `invalid_option` when `operatorErrors` is not `'throw'` or `'result'`.
 */
export function normalizeExecuteToolCallOptions(
  options: ExecuteToolCallOptions = {},
): NormalizedExecuteToolCallOptions {
  const operatorErrors = options.operatorErrors ?? 'throw';
  if (operatorErrors !== 'throw' && operatorErrors !== 'result') {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `operatorErrors must be 'throw' or 'result', got ${JSON.stringify(operatorErrors)}`,
    });
  }
  return { signal: options.signal, operatorErrors };
}

/**
 * Runs a tool call given as an Anthropic `tool_use` block, an OpenAI Chat tool call (`function.arguments`
 * JSON string), an OpenAI Responses `function_call` item, or `{ name, input, id? }`.
 *
 * Error results (`isError: true`, the message in `content`, the error in `error`), by `error.code`:
 * - `unknown_tool`: no tool has that name; the message lists the available names;
 * - `invalid_arguments` (`ToolArgumentError`): the arguments are not valid JSON or do not match the
 *   schema; the message lists each problem by path;
 * - the tool's own `ToolError` codes (`not_found`, `not_unique`, …);
 * - `aborted`: `options.signal` fired before the tool finished (the tool's late outcome is ignored);
 * - `invalid_output` (`ToolOutputError`) or `internal` (anything else a tool throws): a bug in the tool,
 *   reported to the model so the turn stays valid, with the original error as `cause`.
 *
 * Before validation, `null` in keys the input schema marks optional becomes absent (OpenAI strict mode
 * sends `null` for "not given").
 *
 * @throws SandboxError when the sandbox itself failed and `operatorErrors` is `'throw'` (the default).
 * @throws SandkitError `invalid_option` when two tools share a name or an option is invalid.
 */
export async function executeToolCall(
  tools: ToolCollection,
  call: ToolCallInput,
  options?: ExecuteToolCallOptions,
): Promise<ToolCallResult> {
  return runToolCall(listTools(tools), call, normalizeExecuteToolCallOptions(options));
}

/** {@link executeToolCall} on an already listed, checked set of tools. */
export async function runToolCall(
  tools: readonly Tool[],
  call: ToolCallInput,
  options: NormalizedExecuteToolCallOptions,
): Promise<ToolCallResult> {
  const { callId, toolName, input, parseError } = normalizeToolCall(call);
  const tool = tools.find((candidate) => candidate.name === toolName);
  if (tool === undefined) {
    const names = tools.map((t) => t.name).join(', ') || '(none)';
    return toolErrorResult(
      callId,
      String(toolName),
      new ToolError({
        code: SandkitErrorCode.unknownTool,
        message: `Unknown tool "${String(toolName)}". Available tools: ${names}. Call one of these by its exact name.`,
        details: { toolName, available: tools.map((t) => t.name) },
      }),
    );
  }
  if (parseError !== undefined) {
    return toolErrorResult(
      callId,
      toolName,
      new ToolArgumentError({
        toolName,
        message: `The arguments for tool "${toolName}" are not valid JSON (${parseError}). Send the arguments as one JSON object that matches the tool's input schema.`,
      }),
    );
  }
  const { signal } = options;
  if (signal?.aborted) return toolErrorResult(callId, toolName, abortedError(toolName));
  try {
    const output = await untilAborted(
      tool.call(dropNullOptionals(tool.inputSchema, input), { signal, toolCallId: callId }),
      signal,
    );
    return { callId, toolName, isError: false, output, content: tool.toContent(output) };
  } catch (error) {
    if (signal?.aborted) return toolErrorResult(callId, toolName, abortedError(toolName));
    if (SandboxError.isInstance(error)) {
      if (options.operatorErrors === 'throw') throw error;
      return toolErrorResult(callId, toolName, error);
    }
    if (
      ToolError.isInstance(error) ||
      ToolArgumentError.isInstance(error) ||
      ToolOutputError.isInstance(error)
    ) {
      return toolErrorResult(callId, toolName, error);
    }
    const message = error instanceof Error ? error.message : String(error);
    return toolErrorResult(
      callId,
      toolName,
      new SandkitError({
        code: SandkitErrorCode.internal,
        message: `Tool "${toolName}" failed unexpectedly: ${message}. This is probably not caused by your arguments; try another way.`,
        cause: error,
        details: { toolName },
      }),
    );
  }
}

function abortedError(toolName: string): ToolError {
  return new ToolError({
    code: SandkitErrorCode.aborted,
    message: `The call to "${toolName}" was aborted before it finished; its effects, if any, may be partial.`,
    details: { toolName },
  });
}

const abortMarker = Symbol('aborted');

/** Settles with `promise`, or rejects as soon as `signal` fires (the promise's late outcome is ignored). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortMarker);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
