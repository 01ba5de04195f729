export {
  createPooledSandboxProvider,
  type PooledSandboxProvider,
  type PoolStats,
} from './pool/pooled-sandbox-provider.js';
export { normalizePoolOptions, type PooledSandboxProviderOptions } from './pool/normalize-pool-options.js';
export { createAdapterProvider } from './provider/adapter-provider.js';
export { createSandboxComposite, type SandboxCompositeOptions } from './provider/sandbox-composite.js';
export { type CodingAgentRuntime, createCodingAgentRuntime } from './agent/coding-agent-runtime.js';
export type {
  AgentRunOptions,
  AgentRunResult,
  AgentStep,
  AgentToolCall,
  AgentUsage,
  CodingAgentRuntimeOptions,
} from './agent/agent-run-types.js';
export { defaultCodingTools } from './agent/default-coding-tools.js';
export { type BasicCodingToolsOptions, createBasicCodingTools } from './agent/basic-coding-tools.js';
export { workspaceDiff } from './agent/workspace-diff.js';
export { createMcpServer, type McpServerOptions } from './mcp/create-mcp-server.js';
export { type RecordToolCallsOptions, recordToolCalls, type ToolCallRecord } from './record/record-tool-calls.js';
export {
  createRecordWriter,
  type RecordLine,
  type RecordWriter,
  type RecordWriterOptions,
} from './record/record-writer.js';
