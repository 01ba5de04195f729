/**
 * A tool's Zod output schema as an MCP `outputSchema` (MCP spec 2025-06-18, "Structured content"):
 * a JSON Schema whose root is `"type": "object"`, against which clients check `structuredContent`.
 * @module
 */
import type { Tool } from '@sandkit/core';
import { z } from 'zod';

/** An MCP tool `outputSchema`: a JSON Schema object with `"type": "object"` at the root. */
export type McpOutputSchema = { type: 'object'; [key: string]: unknown };

const cache = new WeakMap<Tool, McpOutputSchema | null>();

/**
 * The tool's output schema for `tools/list`, built once per tool with Zod's `z.toJSONSchema`
 * (`io: 'output'`, draft-07, definitions inlined). A root union (`read_file`: text or media; `exec`:
 * foreground or background) keeps its `oneOf`/`anyOf` under a root `"type": "object"`, which every
 * branch is.
 * @returns the schema, or `null` when the output is not an object or cannot be expressed as JSON
 *   Schema (the tool is then listed without `outputSchema` and its results carry no
 *   `structuredContent`).
 */
export function toMcpOutputSchema(tool: Tool): McpOutputSchema | null {
  let schema = cache.get(tool);
  if (schema === undefined) {
    schema = build(tool.outputSchema);
    cache.set(tool, schema);
  }
  return schema;
}

function build(outputSchema: z.ZodType): McpOutputSchema | null {
  let generated: Record<string, unknown>;
  try {
    generated = z.toJSONSchema(outputSchema, {
      io: 'output',
      target: 'draft-7',
      reused: 'inline',
      cycles: 'throw',
      unrepresentable: 'throw',
    }) as Record<string, unknown>;
  } catch {
    // Not expressible (a recursive or non-JSON output): documented above as "no outputSchema".
    return null;
  }
  const { $schema: _dialect, ...rest } = generated;
  if (rest.type === 'object') return { ...rest, type: 'object' };
  const branches = (rest.oneOf ?? rest.anyOf) as Array<Record<string, unknown>> | undefined;
  if (branches !== undefined && branches.length > 0 && branches.every((branch) => branch.type === 'object'))
    return { type: 'object', ...rest };
  return null;
}
