export {
  type CodingToolName,
  type CodingToolsOptions,
  codingToolNames,
  createCodingTools,
  readonlyCodingToolNames,
} from './create-coding-tools.js';
export { type CodingToolOptions, defaultMaxOutputBytes } from './coding-tool-options.js';
export { createReadFileTool, type ReadFileToolOptions } from './read-file.js';
export { createWriteFileTool, type WriteFileToolOptions } from './write-file.js';
export { createEditFileTool, type EditFileToolOptions } from './edit-file.js';
export { createDeleteFileTool, type DeleteFileToolOptions } from './delete-file.js';
export { type ApplyDiffInput, type ApplyDiffOutput, createApplyDiffTool } from './apply-diff.js';
export { createSearchFilesTool, type SearchFilesInput, type SearchFilesOutput, type SearchFilesToolOptions } from './search-files.js';
export { createListFilesTool, type ListFilesInput, type ListFilesOutput } from './list-files.js';
export { createFindFilesTool, type FindFilesInput, type FindFilesOutput } from './find-files.js';
export { createGitCloneTool, type GitCloneToolOptions } from './git-clone.js';
export { createGitDiffTool, type GitDiffInput, type GitDiffOutput } from './git-diff.js';
export { createExecTool, type ExecToolOptions } from './exec.js';
export type { ExecBackendOptions } from './exec-backends.js';
export { createReadOutputTool } from './read-output.js';
export { createKillProcessTool } from './kill-process.js';
export { createRunTestsTool, type RunTestsOutput } from './run-tests.js';
export { type ParseTestOutputOptions, parseTestOutput } from './parsers/parse-test-output.js';
export { getTestStatusMap } from './parsers/test-status-map.js';
export {
  type ParsedFailure,
  type ParsedTest,
  type ParsedTestOutput,
  type TestFramework,
  type TestStatus,
  testFrameworks,
} from './parsers/test-output-types.js';
export { unquoteGitPath } from './unquote-git-path.js';
