import { listTools, type ToolCollection } from './tool-collection.js';
import type { JsonSchemaObject } from './tool-json-schema.js';

/** One tool as the Anthropic Messages API takes it in `tools` (assignable to `Anthropic.Tool`). */
export interface AnthropicToolDefinition {
  name: string;
  description: string;
  /** Self-contained JSON Schema with `"type": "object"` at the root and no root combinator. */
  input_schema: JsonSchemaObject;
}

/**
 * The tools in the Anthropic Messages API format (`{ name, description, input_schema }`), for
 * `client.messages.create({ tools })`. Each schema is a fresh copy; changing it changes nothing else.
 * @throws SandkitError `invalid_option` when two tools share a name.
 * @throws SandkitError `invalid_schema` when a tool's schema cannot be made self-contained.
 */
export function toAnthropicTools(tools: ToolCollection): AnthropicToolDefinition[] {
  return listTools(tools).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: structuredClone(tool.jsonSchema),
  }));
}
