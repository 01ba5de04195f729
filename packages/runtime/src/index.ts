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
export { runEval, type EvalRunResult } from './eval/run-eval.js';
export { type EvalOptions, normalizeEvalOptions, type NormalizedEvalOptions } from './eval/eval-options.js';
export type { ErrorKind, InstanceResult, InstanceStatus, SweBenchInstanceReport } from './eval/eval-result.js';
export type { RunReport } from './eval/run-report.js';
export type { Grade, TestsStatus } from './eval/grade.js';
export { gradeTests } from './eval/grade.js';
export { loadInstances, type LoadedInstances } from './eval/instance-loader.js';
export { goldPredictions, loadPredictions, type LoadedPredictions } from './eval/prediction-loader.js';
export type { RecordError } from './eval/read-records.js';
export {
  type SweBenchInstance,
  type SweBenchPrediction,
  sweBenchInstanceSchema,
  sweBenchPredictionSchema,
} from './eval/swe-bench-instance.js';
export { createStreamProgress, type EvalProgress } from './eval/progress.js';
export { evalExitCode, registerEvalCommand } from './cli/eval-command.js';
