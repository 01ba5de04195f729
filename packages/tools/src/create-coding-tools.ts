/**
 * The whole tool set over one sandbox, in one call.
 * @module
 */
import { type SandboxClient, SandkitError, SandkitErrorCode, type Tool } from '@sandkit/core';
import { createEditFileTool } from './edit/edit-file.js';
import { createExecTool } from './exec/exec.js';
import type { ExecBackendOptions } from './exec/exec-backends.js';
import { createKillProcessTool } from './exec/kill-process.js';
import { createReadOutputTool } from './exec/read-output.js';
import { createDeleteFileTool } from './files/delete-file.js';
import { createReadFileTool } from './files/read-file.js';
import { createWriteFileTool } from './files/write-file.js';
import { createGitCloneTool } from './git/git-clone.js';
import { createGitDiffTool } from './git/git-diff.js';
import { createApplyDiffTool } from './patch/apply-diff.js';
import type { AssetPublisher } from './publish/asset-publisher.js';
import { createPublishTool } from './publish/publish.js';
import type { PublishToolOptions } from './publish/publish-tool-options.js';
import { createRunTestsTool } from './run-tests/run-tests.js';
import { createSearchFilesTool } from './search/search-files.js';
import { createFindFilesTool } from './tree/find-files.js';
import { createListFilesTool } from './tree/list-files.js';
import type { CodingToolOptions } from './workspace/coding-tool-options.js';

/**
 * Names of every tool {@link createCodingTools} can make, in the order it returns them. `publish` is
 * made only when a `publisher` is given, and never with `readonly: true`.
 */
export const codingToolNames = [
  'read_file',
  'list_files',
  'find_files',
  'search_files',
  'git_diff',
  'write_file',
  'edit_file',
  'apply_diff',
  'delete_file',
  'git_clone',
  'run_tests',
  'exec',
  'read_output',
  'kill_process',
  'publish',
] as const;

/** One of {@link codingToolNames}. */
export type CodingToolName = (typeof codingToolNames)[number];

/** The tools that only read: what `readonly: true` keeps. */
export const readonlyCodingToolNames: readonly CodingToolName[] = [
  'read_file',
  'list_files',
  'find_files',
  'search_files',
  'git_diff',
];

/** Options of {@link createCodingTools}. */
export interface CodingToolsOptions extends CodingToolOptions, ExecBackendOptions {
  /** Only the read-only tools (read_file, list_files, find_files, search_files, git_diff). @default false */
  readonly?: boolean;
  /** Only these tools (names without prefix); combined with `readonly`, both must allow a tool. @default all */
  include?: readonly CodingToolName[];
  /**
   * Where the `publish` tool sends files (`createS3Publisher` from `@sandkit/tools/s3`,
   * `createLocalDirectoryPublisher`). Without it there is no `publish` tool.
   * @default none
   */
  publisher?: AssetPublisher;
  /** The `publish` tool's bounds (byte cap, link lifetimes, range size); see {@link PublishToolOptions}. */
  publish?: Omit<PublishToolOptions, keyof CodingToolOptions | 'publisher'>;
  /** Prepended to every tool name (for example `'sandbox_'`); names must stay within `^[a-zA-Z0-9_-]{1,64}$`. @default '' */
  prefix?: string;
}

const factories: Record<CodingToolName, (client: SandboxClient, options: CodingToolsOptions) => Tool> = {
  read_file: (client, options) => createReadFileTool(client, options) as unknown as Tool,
  list_files: (client, options) => createListFilesTool(client, options) as unknown as Tool,
  find_files: (client, options) => createFindFilesTool(client, options) as unknown as Tool,
  search_files: (client, options) => createSearchFilesTool(client, options) as unknown as Tool,
  git_diff: (client, options) => createGitDiffTool(client, options) as unknown as Tool,
  write_file: (client, options) => createWriteFileTool(client, options) as unknown as Tool,
  edit_file: (client, options) => createEditFileTool(client, options) as unknown as Tool,
  apply_diff: (client, options) => createApplyDiffTool(client, options) as unknown as Tool,
  delete_file: (client, options) => createDeleteFileTool(client, options) as unknown as Tool,
  git_clone: (client, options) => createGitCloneTool(client, options) as unknown as Tool,
  run_tests: (client, options) => createRunTestsTool(client, options) as unknown as Tool,
  exec: (client, options) => createExecTool(client, options),
  read_output: (client, options) => createReadOutputTool(client, options),
  kill_process: (client, options) => createKillProcessTool(client, options),
  publish: (client, options) =>
    createPublishTool(client, {
      ...options.publish,
      root: options.root,
      maxOutputBytes: options.maxOutputBytes,
      publisher: options.publisher as AssetPublisher,
    }) as unknown as Tool,
};

/**
 * Makes the coding tools over one sandbox client, all sharing one workspace `root`, one output cap
 * and one per-path lock (mutations of one file never interleave).
 *
 * @example
 * const tools = createCodingTools(handle.client, { root: handle.workdir });
 * @returns the tools in {@link codingToolNames} order (filtered by `readonly` / `include`; `publish`
 *   only with a `publisher`)
 * @throws SandkitError `invalid_option` for an unknown name in `include`, a prefix that makes an
 *   invalid tool name, or a bad `root` / `maxOutputBytes` (see `normalizeCodingToolOptions`).
 */
export function createCodingTools(client: SandboxClient, options: CodingToolsOptions = {}): Tool[] {
  const prefix = options.prefix ?? '';
  const include = options.include ?? codingToolNames;
  for (const name of include) {
    if (!(codingToolNames as readonly string[]).includes(name)) {
      throw invalid(`include lists unknown tool "${name}"; known tools: ${codingToolNames.join(', ')}`);
    }
  }
  if (!/^[a-zA-Z0-9_-]{0,50}$/.test(prefix)) {
    throw invalid(
      `prefix "${prefix}" must match ^[a-zA-Z0-9_-]{0,50}$ so every tool name stays valid for Anthropic, OpenAI and MCP`,
    );
  }
  const allowed = codingToolNames.filter(
    (name) =>
      include.includes(name) &&
      (!options.readonly || readonlyCodingToolNames.includes(name)) &&
      (name !== 'publish' || options.publisher !== undefined),
  );
  return allowed.map((name) => withPrefix(factories[name](client, options), prefix));
}

function withPrefix(tool: Tool, prefix: string): Tool {
  if (prefix === '') return tool;
  return Object.create(tool, { name: { value: `${prefix}${tool.name}`, enumerable: true } }) as Tool;
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message: `createCodingTools: ${message}` });
}
