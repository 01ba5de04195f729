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
export { defaultProtectedPaths } from './protected-paths.js';
export { SandboxError } from './errors/sandbox-error.js';
export { type OptionalPeers, requireOptionalPeers } from './require-optional-peers.js';
export { ToolArgumentError } from './errors/tool-argument-error.js';
export { ToolOutputError } from './errors/tool-output-error.js';
export {
  defineTool,
  type Tool,
  type ToolDefinition,
  type ToolEffect,
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
export {
  pinnedGitArgv,
  pinnedGitCommand,
  pinnedGitConfig,
  pinnedGitDiffOptions,
  pinnedGitEnv,
} from './git-argv.js';
export { listTools, type ToolCollection } from './tool-collection.js';
export {
  type AnthropicToolUseCall,
  type OpenAIChatToolCall,
  type OpenAIResponsesFunctionCall,
  type PlainToolCall,
  type ToolCallInput,
  toolCallId,
} from './tool-call.js';
export type { ToolCallResult } from './tool-call-result.js';
export {
  type ExecuteToolCallOptions,
  executeToolCall,
  type NormalizedExecuteToolCallOptions,
  normalizeExecuteToolCallOptions,
} from './execute-tool-call.js';
export { executeToolCalls } from './execute-tool-calls.js';
export { createToolCallSequencer, type ToolCallSequencer } from './tool-call-sequencer.js';
export { dropNullOptionals } from './drop-null-optionals.js';
export { toStrictJsonSchema } from './strict-json-schema.js';
export { type AnthropicToolDefinition, toAnthropicTools } from './anthropic-tools.js';
export {
  normalizeOpenAIToolsOptions,
  type OpenAIChatFunctionTool,
  type OpenAIResponsesFunctionTool,
  type OpenAIToolsOptions,
  toOpenAITools,
} from './openai-tools.js';
export {
  type AISDKInputSchema,
  type AISDKTool,
  type AISDKToolModelOutput,
  type AISDKToolsOptions,
  toAISDKTools,
} from './ai-sdk-tools.js';
export {
  type AssistantToolCalls,
  assertToolResultsComplete,
  assistantToolCallIds,
} from './assert-tool-results-complete.js';
export {
  type AnthropicDocumentBlock,
  type AnthropicImageBlock,
  type AnthropicTextBlock,
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  type AnthropicToolResultOptions,
  toAnthropicToolResultMessage,
} from './anthropic-tool-results.js';
export {
  type OpenAIChatAttachmentMessage,
  type OpenAIChatAttachmentPart,
  type OpenAIChatToolMessage,
  type OpenAIChatToolMessagesOptions,
  toOpenAIChatToolMessages,
} from './openai-chat-tool-messages.js';
export {
  type OpenAIResponsesFunctionCallOutput,
  type OpenAIResponsesOutputPart,
  type OpenAIResponsesToolOutputsOptions,
  toOpenAIResponsesToolOutputs,
} from './openai-responses-tool-outputs.js';
export { isProviderImageType, type ProviderImageMediaType } from './tool-content-media.js';
export { assertToolHistoryComplete } from './assert-tool-history-complete.js';
