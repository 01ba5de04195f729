import type { Tool } from './define-tool.js';
import { SandkitError, SandkitErrorCode } from './errors/sandkit-error.js';

/**
 * A set of tools as the provider formats and `executeToolCall` accept it: an array, or a record
 * keyed by any name (the record's keys are ignored; each tool's own `name` is what the model sees).
 */
export type ToolCollection = readonly Tool[] | Readonly<Record<string, Tool>>;

/**
 * The tools of a collection as an array, in order.
 * @throws SandkitError `invalid_option` when two tools share a name (providers reject such a list).
 */
export function listTools(tools: ToolCollection): Tool[] {
  const list: Tool[] = Array.isArray(tools) ? [...tools] : Object.values(tools);
  const seen = new Set<string>();
  for (const tool of list) {
    if (seen.has(tool.name)) {
      throw new SandkitError({
        code: SandkitErrorCode.invalidOption,
        message: `Two tools are named "${tool.name}"; tool names must be unique (rename one, or use a prefix).`,
        details: { toolName: tool.name },
      });
    }
    seen.add(tool.name);
  }
  return list;
}
