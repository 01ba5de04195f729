import { randomUUID } from 'node:crypto';
import { SandkitError, type Tool } from '@sandkit/core';
import { createRecordWriter, type RecordWriter, type RecordWriterOptions } from './record-writer.js';

/** Options of {@link recordToolCalls}: where to write, and an optional `redact` hook. */
export type RecordToolCallsOptions = RecordWriterOptions;

/**
 * One recorded call, written as one JSON line:
 * `{ type: 'tool_call', callId, tool, input, output | error, startedAt, durationMs }`.
 * `callId` is the provider's id when the caller passed `toolCallId`, otherwise a generated UUID.
 */
export type ToolCallRecord = {
  type: 'tool_call';
  callId: string;
  tool: string;
  input: unknown;
  output?: unknown;
  error?: { name: string; code?: string; message: string };
  /** ISO 8601 time the call started. */
  startedAt: string;
  /** Wall time of the call, in ms. */
  durationMs: number;
};

/**
 * Wraps tools so that every call is recorded after it finishes. The wrapped tools return and throw
 * exactly what the originals do; a recording failure goes to `onError` and never reaches the caller.
 * Records are written in completion order, each before the call's promise settles.
 *
 * @param target the options, or a writer shared with other recorders (the agent loop's trajectory).
 * @throws SandkitError `invalid_option` (see {@link createRecordWriter}).
 */
export function recordToolCalls(
  tools: readonly Tool[],
  target: RecordToolCallsOptions | RecordWriter,
): Tool[] {
  const writer = 'write' in target ? target : createRecordWriter(target);
  return tools.map((tool) => recordTool(tool, writer));
}

function recordTool(tool: Tool, writer: RecordWriter): Tool {
  return {
    name: tool.name,
    description: tool.description,
    permission: tool.permission,
    effect: tool.effect,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    get jsonSchema() {
      return tool.jsonSchema;
    },
    toContent: (output) => tool.toContent(output),
    async call(input, context = {}) {
      const callId = context.toolCallId ?? randomUUID();
      const startedAt = new Date();
      const started = performance.now();
      const base = {
        type: 'tool_call' as const,
        callId,
        tool: tool.name,
        input,
        startedAt: startedAt.toISOString(),
      };
      let output: unknown;
      try {
        output = await tool.call(input, context);
      } catch (error) {
        const record: ToolCallRecord = {
          ...base,
          error: describeError(error),
          durationMs: performance.now() - started,
        };
        await writer.write(record);
        throw error;
      }
      const record: ToolCallRecord = { ...base, output, durationMs: performance.now() - started };
      await writer.write(record);
      return output;
    },
  };
}

function describeError(error: unknown): ToolCallRecord['error'] {
  if (SandkitError.isInstance(error)) return { name: error.name, code: error.code, message: error.message };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
