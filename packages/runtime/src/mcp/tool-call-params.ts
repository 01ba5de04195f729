/**
 * The `tools/call` request schema of `sandkit mcp`, with params checked before the SDK's own schema
 * sees them (case R15). The SDK parses a request with the handler's schema and answers a failure with
 * `-32603` (internal error) and the Zod issues as JSON; a model's malformed call deserves `-32602`
 * (invalid params, JSON-RPC 2.0 section 5.1) and a sentence that says how to fix it.
 * @module
 */
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The params of a checked `tools/call`. */
export interface CallToolParams {
  name: string;
  arguments?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * `CallToolRequestSchema` whose `params` go through {@link checkCallToolParams} first.
 * @throws McpError `-32602` (from `parse`) for params that are not `{ name, arguments? }`.
 */
export const CheckedCallToolRequestSchema = CallToolRequestSchema.extend({
  params: z.unknown().transform(checkCallToolParams),
});

/**
 * Returns `params` when it is an object with a non-empty string `name` and, if present, an object
 * `arguments` (a JSON object, not an array or null).
 * @throws McpError `-32602` (invalid params) naming what is wrong and how to fix it.
 */
export function checkCallToolParams(params: unknown): CallToolParams {
  if (!isPlainObject(params))
    invalidParams(
      `tools/call params must be an object { "name": TOOL, "arguments": { … } }, got ${kindOf(params)}`,
    );
  if (typeof params.name !== 'string' || params.name === '')
    invalidParams(
      `tools/call params.name must be the tool's name as a string (see tools/list), got ${kindOf(params.name)}`,
    );
  if (params.arguments !== undefined && !isPlainObject(params.arguments))
    invalidParams(
      `tools/call arguments of "${params.name}" must be a JSON object of the tool's parameters (see its inputSchema in tools/list), got ${kindOf(params.arguments)}`,
    );
  return params as CallToolParams;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value} (${JSON.stringify(value).slice(0, 40)})`;
}

function invalidParams(message: string): never {
  throw new McpError(ErrorCode.InvalidParams, message);
}
