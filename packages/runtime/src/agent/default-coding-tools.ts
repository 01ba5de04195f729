import type { SandboxClient, Tool } from '@sandkit/core';
import { createBasicCodingTools } from './basic-coding-tools.js';

/**
 * The agent loop's and the MCP server's default tools for a sandbox, rooted at `workdir`.
 *
 * The one place to switch to `createCodingTools(client, { root: workdir, readonly })` from
 * `@sandkit/tools` once that package exports it; until then the stand-in set of
 * {@link createBasicCodingTools}.
 */
export function defaultCodingTools(
  client: SandboxClient,
  workdir: string,
  options: { readonly?: boolean } = {},
): Tool[] {
  return createBasicCodingTools(client, { root: workdir, readonly: options.readonly });
}
