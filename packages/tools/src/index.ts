export {
  type CodingToolName,
  type CodingToolsOptions,
  codingToolNames,
  createCodingTools,
  readonlyCodingToolNames,
} from './create-coding-tools.js';
export { type CodingToolOptions, defaultMaxOutputBytes } from './workspace/coding-tool-options.js';
export { createReadFileTool, type ReadFileToolOptions } from './files/read-file.js';
export { createWriteFileTool, type WriteFileToolOptions } from './files/write-file.js';
export { createEditFileTool, type EditFileToolOptions } from './edit/edit-file.js';
export { createDeleteFileTool, type DeleteFileToolOptions } from './files/delete-file.js';
export { type ApplyDiffInput, type ApplyDiffOutput, createApplyDiffTool } from './patch/apply-diff.js';
export { createSearchFilesTool, type SearchFilesToolOptions } from './search/search-files.js';
export type { SearchFilesInput, SearchFilesOutput } from './search/search-files-schema.js';
export { createListFilesTool, type ListFilesInput, type ListFilesOutput } from './tree/list-files.js';
export { createFindFilesTool, type FindFilesInput, type FindFilesOutput } from './tree/find-files.js';
export { createGitCloneTool, type GitCloneToolOptions } from './git/git-clone.js';
export { createGitDiffTool, type GitDiffInput, type GitDiffOutput } from './git/git-diff.js';
export { createExecTool, type ExecToolOptions } from './exec/exec.js';
export type { ExecBackendOptions } from './exec/exec-backends.js';
export { createReadOutputTool } from './exec/read-output.js';
export { createKillProcessTool } from './exec/kill-process.js';
export { createRunTestsTool, type RunTestsOutput } from './run-tests/run-tests.js';
export { type ParseTestOutputOptions, parseTestOutput } from './parsers/parse-test-output.js';
export { getTestStatuses, getTestStatusMap } from './parsers/test-status-map.js';
export {
  type ParsedFailure,
  type ParsedTest,
  type ParsedTestOutput,
  type TestFramework,
  type TestStatus,
  testFrameworks,
} from './parsers/test-output-types.js';
export { createPublishTool, type PublishOutput } from './publish/publish.js';
export { minPublishExpiresInSeconds, type PublishToolOptions } from './publish/publish-tool-options.js';
export type {
  AssetPublisher,
  ShareRequest,
  ShareRequestFields,
  SharedAsset,
} from './publish/asset-publisher.js';
export {
  createLocalDirectoryPublisher,
  type LocalDirectoryPublisherOptions,
} from './publish/local-directory-publisher.js';
export { guessContentType } from './publish/guess-content-type.js';
export { unquoteGitPath } from './diff/unquote-git-path.js';
