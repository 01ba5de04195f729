/**
 * Tools for the Vercel AI SDK (v6): a record for `generateText({ tools })` / `streamText({ tools })`.
 *
 * The objects are plain and structurally typed, so `@sandkit/core` needs `ai` neither at runtime nor
 * for its types: `inputSchema` is a Standard Schema (`~standard`, https://standardschema.dev) whose
 * JSON Schema is our self-contained schema, which AI SDK 6 accepts like its own `jsonSchema()`.
 * @module
 */
import { runToolCall } from './execute-tool-call.js';
import type { executeToolCalls } from './execute-tool-calls.js';
import { toStrictJsonSchema } from './strict-json-schema.js';
import { createToolCallSequencer } from './tool-call-sequencer.js';
import { listTools, type ToolCollection } from './tool-collection.js';
import type { ToolContent } from './tool-content.js';
import { emptyResultText } from './tool-content-media.js';

/** A Standard Schema v1 with a Standard JSON Schema converter, as AI SDK 6's `inputSchema` takes it. */
export interface AISDKInputSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'sandkit';
    /** Passes every value through: the tool validates its input itself, with messages a model can act on. */
    readonly validate: (value: unknown) => { value: unknown };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** What the model sees of a result (assignable to the AI SDK's `ToolResultOutput`). */
export type AISDKToolModelOutput =
  | { type: 'text'; value: string }
  | {
      type: 'content';
      value: Array<
        | { type: 'text'; text: string }
        | { type: 'image-data'; data: string; mediaType: string }
        | { type: 'file-data'; data: string; mediaType: string; filename?: string }
      >;
    };

/** One tool in the AI SDK's shape (assignable to `Tool` from `ai`). */
export interface AISDKTool {
  description: string;
  inputSchema: AISDKInputSchema;
  /** Sent to providers that know strict mode (OpenAI); always explicit. */
  strict: boolean;
  /**
   * Runs the tool through `executeToolCall`. A failed call throws its `SandkitError` (the AI SDK sends
   * its message to the model as an `error-text` tool result and records a `tool-error` part).
   */
  execute: (input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }) => Promise<unknown>;
  /** The tool's `toContent(output)`: text as text, images as `image-data`, PDFs as `file-data`. */
  toModelOutput: (options: { toolCallId: string; input: unknown; output: unknown }) => AISDKToolModelOutput;
}

/** Options of {@link toAISDKTools}. */
export interface AISDKToolsOptions {
  /**
   * OpenAI-style strict mode: the schema is rewritten (all keys required, optional ones nullable) and
   * `strict: true` is set on each tool; `null`s are turned back into absent keys before the tool runs.
   * @default false
   */
  strict?: boolean;
}

/**
 * The tools as an AI SDK 6 tool set keyed by tool name, for `generateText({ tools })`.
 *
 * Order: the AI SDK starts the `execute` of every tool call of a step in the order the model wrote
 * them and then runs them concurrently (`Promise.all`). The tools of one set share a queue so that
 * calls behave as if run in that order, as {@link executeToolCalls} does: `'read'` tools may overlap
 * one another, every other call (write, delete, exec, background-process control, any tool without a
 * declared `effect`) waits for every earlier call and holds back every later one. Build one set per
 * agent run; two sets do not order each other's calls.
 *
 * Failures the model can fix (bad arguments, `ToolError`, abort) reach the model as error results. The
 * AI SDK catches every error a tool's `execute` throws, so a `SandboxError` also ends up as a
 * `tool-error` part (the original error object is kept there: check `SandboxError.isInstance(part.error)`
 * in `onStepFinish` and stop the loop).
 * @throws SandkitError `invalid_option` when two tools share a name.
 * @throws SandkitError `invalid_schema` with `strict: true` for a schema strict mode cannot express.
 */
export function toAISDKTools(
  tools: ToolCollection,
  options: AISDKToolsOptions = {},
): Record<string, AISDKTool> {
  const strict = options.strict ?? false;
  const list = listTools(tools);
  const sequencer = createToolCallSequencer();
  const set: Record<string, AISDKTool> = {};
  for (const tool of list) {
    const schema = strict ? toStrictJsonSchema(tool.name, tool.jsonSchema) : tool.jsonSchema;
    // A fresh copy per call: the AI SDK edits the schema it gets (adds `additionalProperties`).
    const toJsonSchema = () => structuredClone(schema) as Record<string, unknown>;
    set[tool.name] = {
      description: tool.description,
      inputSchema: {
        '~standard': {
          version: 1,
          vendor: 'sandkit',
          validate: (value) => ({ value }),
          jsonSchema: { input: toJsonSchema, output: toJsonSchema },
        },
      },
      strict,
      async execute(input, { toolCallId, abortSignal }) {
        const result = await sequencer.schedule(tool.effect, () =>
          runToolCall(
            list,
            { name: tool.name, input, id: toolCallId },
            { signal: abortSignal, operatorErrors: 'throw' },
          ),
        );
        if (result.error !== undefined) throw result.error;
        return result.output;
      },
      toModelOutput: ({ output }) => toModelOutput(tool.toContent(output)),
    };
  }
  return set;
}

function toModelOutput(content: ToolContent[]): AISDKToolModelOutput {
  const [first] = content;
  if (first === undefined) return { type: 'text', value: emptyResultText };
  if (content.length === 1 && first?.type === 'text') return { type: 'text', value: first.text };
  return {
    type: 'content',
    value: content.map((part) => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      if (part.type === 'image') return { type: 'image-data', data: part.data, mediaType: part.mediaType };
      return part.title === undefined
        ? { type: 'file-data', data: part.data, mediaType: part.mediaType }
        : { type: 'file-data', data: part.data, mediaType: part.mediaType, filename: part.title };
    }),
  };
}
