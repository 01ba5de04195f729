import type { z } from 'zod';
import { SandkitError, SandkitErrorCode } from './errors/sandkit-error.js';
import { ToolArgumentError } from './errors/tool-argument-error.js';
import { ToolOutputError } from './errors/tool-output-error.js';
import type { ToolContent } from './tool-content.js';
import { assertToolInputSchema, type JsonSchemaObject, toToolJsonSchema } from './tool-json-schema.js';

/** What a tool may do to the sandbox: read only, write files, or run arbitrary commands. */
export type ToolPermission = 'read' | 'write' | 'exec';

/**
 * How a call may overlap the other calls of one assistant turn (see `executeToolCalls`):
 * - `'read'`: it only reads the sandbox, so it may run at the same time as other reads;
 * - `'barrier'`: it writes, deletes, runs a command or controls a background process, so it waits
 *   for every earlier call of the turn and holds back every later one.
 */
export type ToolEffect = 'read' | 'barrier';

/** Passed to a tool's `execute` with each call. */
export interface ToolExecuteContext {
  /** Aborted when the caller gives up on the call; tools pass it to `exec` so commands are killed. */
  signal?: AbortSignal;
  /** The provider's id of this call (`tool_use.id`, `call_id`), when known. */
  toolCallId?: string;
}

/** The object a tool is defined from. See {@link defineTool}. */
export interface ToolDefinition<Input extends z.ZodObject, Output extends z.ZodType> {
  /** `^[a-zA-Z0-9_-]{1,64}$`, the rule shared by Anthropic, OpenAI and MCP. */
  name: string;
  /** Written for the model: what the tool does, its limits, how to continue a cut result. */
  description: string;
  /** Zod object schema of the arguments. Its root must be an object (no unions at the root). */
  inputSchema: Input;
  /** Zod schema of the result; checked on every call. */
  outputSchema: Output;
  permission: ToolPermission;
  /**
   * Whether calls may overlap: `'read'` only for a tool that changes nothing in the sandbox (no file,
   * no process, no index lock). See {@link ToolEffect}.
   * @default `'read'` for `permission: 'read'` (a read-only tool), else `'barrier'` (the safe
   *   choice: calls run in the order the model wrote them)
   */
  effect?: ToolEffect;
  /** Does the work. Throw `ToolError` for failures the model can fix. */
  execute(input: z.output<Input>, context: ToolExecuteContext): Promise<z.input<Output>>;
  /**
   * Turns a result into what the model sees.
   * @default one text part holding the result as JSON
   */
  toContent?(output: z.output<Output>): ToolContent[];
}

/** A defined tool, ready for `executeToolCall` and the provider formats. */
export interface Tool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly permission: ToolPermission;
  /**
   * `'read'` calls may overlap each other; a `'barrier'` call runs alone, in call order. Absent on a
   * hand-built tool object means `'barrier'`.
   */
  readonly effect?: ToolEffect;
  readonly inputSchema: Input;
  readonly outputSchema: Output;
  /** Self-contained JSON Schema of the input (no `$ref`, `$defs` or `$schema`), built on first use. */
  readonly jsonSchema: JsonSchemaObject;
  /**
   * Validates `input`, runs the tool and validates its result.
   * @throws ToolArgumentError (`invalid_arguments`) when `input` does not match the input schema.
   * @throws ToolError when the tool fails in a way the model can fix.
   * @throws ToolOutputError (`invalid_output`) when the result does not match the output schema.
   * @throws SandboxError when the sandbox itself fails.
   */
  call(input: unknown, context?: ToolExecuteContext): Promise<z.output<Output>>;
  /** What the model sees for a result. */
  toContent(output: z.output<Output>): ToolContent[];
}

const toolName = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool: validates input and output at the boundary and builds its JSON Schema lazily.
 *
 * @throws SandkitError `invalid_schema` when the name is not `^[a-zA-Z0-9_-]{1,64}$`, or the input
 *   schema's root is not a plain object, or it is recursive (checked here, not at call time).
 */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodType>(
  definition: ToolDefinition<Input, Output>,
): Tool<Input, Output> {
  if (!toolName.test(definition.name)) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidSchema,
      message: `Tool name "${definition.name}" must match ^[a-zA-Z0-9_-]{1,64}$ (the rule shared by Anthropic, OpenAI and MCP).`,
    });
  }
  assertToolInputSchema(definition.name, definition.inputSchema);
  // Unknown top-level keys are an error, not silently dropped: a model that misspells a field
  // (`contextLines` for `context`) learns it instead of having its intent ignored.
  const strictInput = definition.inputSchema.strict();
  let jsonSchema: JsonSchemaObject | undefined;
  const toContent =
    definition.toContent ??
    ((output: z.output<Output>): ToolContent[] => [{ type: 'text', text: JSON.stringify(output) }]);
  return {
    name: definition.name,
    description: definition.description,
    permission: definition.permission,
    effect: definition.effect ?? (definition.permission === 'read' ? 'read' : 'barrier'),
    inputSchema: definition.inputSchema,
    outputSchema: definition.outputSchema,
    get jsonSchema() {
      jsonSchema ??= toToolJsonSchema(definition.name, definition.inputSchema);
      return jsonSchema;
    },
    async call(input, context = {}) {
      const parsed = strictInput.safeParse(input);
      if (!parsed.success) {
        throw new ToolArgumentError({ toolName: definition.name, issues: parsed.error.issues });
      }
      // .strict() only adds the unknown-key check; the parsed shape is the input schema's own.
      const raw = await definition.execute(parsed.data as z.output<Input>, context);
      const checked = definition.outputSchema.safeParse(raw);
      if (!checked.success) {
        throw new ToolOutputError({ toolName: definition.name, issues: checked.error.issues });
      }
      return checked.data;
    },
    toContent,
  };
}
