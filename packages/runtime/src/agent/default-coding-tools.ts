import type { SandboxClient, Tool } from '@sandkit/core';
import { type CodingToolsOptions, createCodingTools } from '@sandkit/tools';

/**
 * The agent loop's and the MCP server's default tools for a sandbox: `createCodingTools` from
 * `@sandkit/tools` with `root: workdir` (every path resolves inside it).
 * @param options `readonly` keeps only the read-only tools (@default false); `publisher` adds the
 *   `publish` tool (never with `readonly`), `publish` bounds it.
 * @throws SandkitError `invalid_option` when `workdir` is not absolute.
 */
export function defaultCodingTools(
  client: SandboxClient,
  workdir: string,
  options: Pick<CodingToolsOptions, 'readonly' | 'publisher' | 'publish'> = {},
): Tool[] {
  return createCodingTools(client, { ...options, root: workdir });
}
