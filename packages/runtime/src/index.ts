export type {
  AgentRunOptions,
  AgentRunResult,
  AgentStep,
  AgentToolCall,
  AgentUsage,
  CodingAgentRuntimeOptions,
} from './agent/agent-run-types.js';
export { type CodingAgentRuntime, createCodingAgentRuntime } from './agent/coding-agent-runtime.js';
export { defaultCodingTools } from './agent/default-coding-tools.js';
export { workspaceDiff } from './agent/workspace-diff.js';
export { evalExitCode, registerEvalCommand } from './cli/eval-command.js';
export { gradeExitCode, registerGradeCommand } from './cli/grade-command.js';
export { registerRunCommand, runExitCode } from './cli/run-command.js';
export {
  type EvalOptions,
  type EvalSchedule,
  type NormalizedEvalOptions,
  normalizeEvalOptions,
} from './eval/eval-options.js';
export { type OfficialIdForm, officialIdForm, toOfficialId } from './eval/grade/official-ids.js';
export { type GradeOptions, type GradeRunResult, runGrade } from './eval/grade/run-grade.js';
export type {
  ErrorKind,
  InstanceResult,
  InstanceStatus,
  SweBenchInstanceReport,
} from './eval/instance/eval-result.js';
export type { Grade, TestsStatus } from './eval/instance/grade.js';
export { gradeTests } from './eval/instance/grade.js';
export { type LoadedInstances, loadInstances } from './eval/load/instance-loader.js';
export { goldPredictions, type LoadedPredictions, loadPredictions } from './eval/load/prediction-loader.js';
export type { RecordError } from './eval/load/read-records.js';
export {
  type SweBenchInstance,
  type SweBenchPrediction,
  sweBenchInstanceSchema,
  sweBenchPredictionSchema,
} from './eval/load/swe-bench-instance.js';
export { createStreamProgress, type EvalProgress } from './eval/report/progress.js';
export type { RunReport } from './eval/report/run-report.js';
export { type EvalRunResult, runEval } from './eval/run-eval.js';
export { type ImageNaming, instanceImageName, officialImageNaming } from './eval/sandbox/official-image.js';
export { createMcpServer, type McpServerOptions } from './mcp/create-mcp-server.js';
export {
  type AtifStep,
  type AtifTrajectory,
  atifSchemaVersion,
  atifTrajectorySchema,
} from './run/atif/atif-schema.js';
export { toAtifTrajectory } from './run/atif/to-atif.js';
export {
  type AgentExitStatus,
  agentExitStatuses,
  isFinalStatus,
  rerunStatuses,
} from './run/exit-status.js';
export { classifyModelError, type ModelErrorKind } from './run/model/classify-model-error.js';
export {
  costUsd,
  lookupModelPrice,
  type ModelPrice,
  parsePriceOverride,
} from './run/model/model-price.js';
export {
  type ModelProvider,
  type ResolvedModel,
  type ResolveModelOptions,
  resolveModel,
} from './run/model/resolve-model.js';
export {
  defaultPromptFile,
  loadPromptTemplate,
  promptPlaceholders,
  renderPrompt,
} from './run/prompt-template.js';
export {
  type ReplayDivergence,
  type ReplayOptions,
  type ReplayResult,
  readTrajectoryFile,
  replayTrajectory,
} from './run/replay-trajectory.js';
export {
  type AgentBenchmarkResult,
  atifPath,
  runAgentBenchmark,
  trajectoryPath,
} from './run/run-agent-benchmark.js';
export {
  type NormalizedRunOptions,
  normalizeRunOptions,
  type RunAgentBenchmarkOptions,
} from './run/run-options.js';
export type { RunRecord, RunStop } from './run/run-record.js';
export {
  alwaysMalformedToolCallScript,
  alwaysServerErrorScript,
  contextOverflowScript,
  malformedToolCallScript,
  neverStopsScript,
  type OracleInstance,
  oracleScript,
  rateLimitedOnceScript,
  unknownToolScript,
} from './run/stand-in/scripts.js';
export type {
  StandInMessage,
  StandInReply,
  StandInScript,
  StandInToolCall,
  StandInToolResult,
  StandInTurn,
} from './run/stand-in/stand-in-types.js';
export {
  type ModelStandIn,
  type ModelStandInOptions,
  startModelStandIn,
} from './run/stand-in/start-model-stand-in.js';
export {
  type TokenUsage,
  type Trajectory,
  type TrajectoryAttempt,
  type TrajectoryStep,
  trajectoryAttemptSchema,
  trajectorySchema,
} from './run/trajectory-schema.js';
export type { CostOf } from './run/trajectory-step.js';
export { normalizePoolOptions, type PooledSandboxProviderOptions } from './pool/normalize-pool-options.js';
export {
  createPooledSandboxProvider,
  type PooledSandboxProvider,
  type PoolStats,
} from './pool/pooled-sandbox-provider.js';
export { createSandboxQuota, type SandboxQuota, type SandboxQuotaMember } from './pool/sandbox-quota.js';
export { createAdapterProvider } from './provider/adapter-provider.js';
export { createSandboxComposite, type SandboxCompositeOptions } from './provider/sandbox-composite.js';
export {
  type RecordToolCallsOptions,
  recordToolCalls,
  type ToolCallRecord,
} from './record/record-tool-calls.js';
export {
  createRecordWriter,
  type RecordLine,
  type RecordWriter,
  type RecordWriterOptions,
} from './record/record-writer.js';
export type {
  ViewData,
  ViewInstance,
  ViewRun,
  ViewRunKind,
  ViewTest,
  ViewTestStatus,
  ViewTotals,
} from './view/model/view-data.js';
export {
  defaultReportPath,
  type ViewReport,
  type ViewReportOptions,
  writeViewReport,
} from './view/write-view-report.js';
