export type {
  ExecOptions,
  ExecResult,
  ReadFileOptions,
  SandboxClient,
  SandboxData,
  WriteFileOptions,
} from './sandbox-client.js';
export type {
  SandboxAcquireOptions,
  SandboxAdapter,
  SandboxCreateOptions,
  SandboxHandle,
  SandboxProvider,
  SandboxReleaseOptions,
  SandboxSession,
} from './sandbox-adapter.js';
export {
  SandkitError,
  SandkitErrorCode,
  type SandkitErrorCodeValue,
  type SandkitErrorOptions,
} from './errors/sandkit-error.js';
export { ToolError } from './errors/tool-error.js';
export { SandboxError } from './errors/sandbox-error.js';
export { ToolArgumentError } from './errors/tool-argument-error.js';
export { ToolOutputError } from './errors/tool-output-error.js';
export {
  defineTool,
  type Tool,
  type ToolDefinition,
  type ToolExecuteContext,
  type ToolPermission,
} from './define-tool.js';
export type { ToolContent, ToolDocumentContent, ToolImageContent, ToolTextContent } from './tool-content.js';
export {
  assertToolInputSchema,
  type JsonSchema,
  type JsonSchemaObject,
  toToolJsonSchema,
} from './tool-json-schema.js';
export { type TruncatedText, truncateUtf8, utf8Boundary } from './truncate-utf8.js';
export { formatCommand, quoteShellArgument } from './shell-quote.js';
