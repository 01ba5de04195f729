import { SandkitError, SandkitErrorCode } from './errors/sandkit-error.js';
import { toStrictJsonSchema } from './strict-json-schema.js';
import { listTools, type ToolCollection } from './tool-collection.js';
import type { JsonSchemaObject } from './tool-json-schema.js';

/** A Chat Completions function tool (assignable to `OpenAI.Chat.ChatCompletionTool`). */
export interface OpenAIChatFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchemaObject; strict: boolean };
}

/** A Responses API function tool (assignable to `OpenAI.Responses.FunctionTool`). */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchemaObject;
  strict: boolean;
}

/** Options of {@link toOpenAITools}. */
export interface OpenAIToolsOptions {
  /** Which endpoint the list is for: `/v1/chat/completions` or `/v1/responses`. */
  api: 'chat' | 'responses';
  /**
   * OpenAI strict function calling. Always sent explicitly: a Responses tool without `strict` is strict
   * by the API's default, a Chat tool without it is not, so leaving it out makes one tool list behave
   * differently on the two endpoints.
   *
   * - `false`: the schema goes out as it is (optional keys stay optional).
   * - `true`: the schema is rewritten for strict mode (every key required, optional keys nullable,
   *   `additionalProperties: false` everywhere); `executeToolCall` turns the `null`s back into absent keys.
   *   Tools with free-form maps (`z.record`) or untyped values are refused.
   * @default false (for both APIs, so optional parameters work the same on both)
   */
  strict?: boolean;
}

/**
 * The tools in an OpenAI format: Chat Completions `{ type: 'function', function: { name, description,
 * parameters, strict } }` or Responses `{ type: 'function', name, description, parameters, strict }`.
 * @throws SandkitError `invalid_option` when `api` is not `'chat'`/`'responses'`, or two tools share a name.
 * @throws SandkitError `invalid_schema` with `strict: true` when a tool's schema cannot be strict
 *   (free-form maps, `z.any()`, intersections); the message names the tool and the path.
 */
export function toOpenAITools(
  tools: ToolCollection,
  options: OpenAIToolsOptions & { api: 'chat' },
): OpenAIChatFunctionTool[];
export function toOpenAITools(
  tools: ToolCollection,
  options: OpenAIToolsOptions & { api: 'responses' },
): OpenAIResponsesFunctionTool[];
export function toOpenAITools(
  tools: ToolCollection,
  options: OpenAIToolsOptions,
): OpenAIChatFunctionTool[] | OpenAIResponsesFunctionTool[];
export function toOpenAITools(
  tools: ToolCollection,
  options: OpenAIToolsOptions,
): OpenAIChatFunctionTool[] | OpenAIResponsesFunctionTool[] {
  const { api, strict } = normalizeOpenAIToolsOptions(options);
  const entries = listTools(tools).map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: strict ? toStrictJsonSchema(tool.name, tool.jsonSchema) : structuredClone(tool.jsonSchema),
    strict,
  }));
  if (api === 'responses') return entries.map((entry) => ({ type: 'function' as const, ...entry }));
  return entries.map((entry) => ({ type: 'function' as const, function: entry }));
}

/**
 * Fills the defaults of {@link OpenAIToolsOptions}.
 * @throws SandkitError `invalid_option` when `api` or `strict` has a wrong value.
 */
export function normalizeOpenAIToolsOptions(options: OpenAIToolsOptions): Required<OpenAIToolsOptions> {
  if (options?.api !== 'chat' && options?.api !== 'responses') {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `toOpenAITools needs { api: 'chat' } or { api: 'responses' }, got api ${JSON.stringify(options?.api)}`,
    });
  }
  const strict = options.strict ?? false;
  if (typeof strict !== 'boolean') {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `strict must be a boolean, got ${JSON.stringify(strict)}`,
    });
  }
  return { api: options.api, strict };
}
