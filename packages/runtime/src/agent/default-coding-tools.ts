import type { SandboxClient, Tool } from '@sandkit/core';
import { createCodingTools } from '@sandkit/tools';

/**
 * The agent loop's and the MCP server's default tools for a sandbox: `createCodingTools` from
 * `@sandkit/tools` with `root: workdir` (every path resolves inside it).
 * @param options `readonly` keeps only the read-only tools. @default false
 * @throws SandkitError `invalid_option` when `workdir` is not absolute.
 */
export function defaultCodingTools(
  client: SandboxClient,
  workdir: string,
  options: { readonly?: boolean } = {},
): Tool[] {
  return createCodingTools(client, { root: workdir, readonly: options.readonly });
}
