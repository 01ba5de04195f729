import type { SandboxClient, SandboxProvider, SandboxSession, Tool } from '@sandkit/core';
import type { LanguageModel } from 'ai';
import type { RecordWriterOptions } from '../record/record-writer.js';

/** Options of `createCodingAgentRuntime`. */
export interface CodingAgentRuntimeOptions {
  /** Where each run gets its sandbox (a pool, a composite, or `createAdapterProvider`). */
  sandboxProvider: SandboxProvider;
  /** Any AI SDK 6 language model (`anthropic('claude-…')`, `openai('gpt-…')`, a mock). */
  model: LanguageModel;
  /** System prompt. @default none */
  system?: string;
  /** Most model steps (model calls) per run; the run stops after this many. Integer ≥ 1. */
  maxSteps: number;
  /** The tools of one run, built over its sandbox. @default `defaultCodingTools(client, workdir)` */
  tools?: (client: SandboxClient, workdir: string) => Tool[];
  /** Called after each step with its text and its tool calls, each with its one result. */
  onStep?: (step: AgentStep) => void | Promise<void>;
  /**
   * Records each run as a trajectory: every tool call, then one `{ type: 'run', … }` summary line.
   * A function gets the run's session (to name a file per run). `sandboxDir` is written in the run's sandbox.
   * @default no recording
   */
  record?:
    | Omit<RecordWriterOptions, 'client'>
    | ((session: SandboxSession) => Omit<RecordWriterOptions, 'client'>);
  /** Passed to `acquire()`, so vendors with a sandbox lifetime (E2B) keep it alive this long, in ms. @default none */
  expectedDurationMs?: number;
}

/** Options of one run. */
export interface AgentRunOptions {
  /** The user message: what the agent should do. */
  task: string;
  /** Prepares the sandbox before the model starts (clone a repo, write files). Its failure fails the run. */
  setup?: (session: SandboxSession) => Promise<void>;
  /** Aborting stops the model request and kills the commands tools are running. */
  signal?: AbortSignal;
}

/** One tool call of a step with its one result, in the order the model made the calls. */
export interface AgentToolCall {
  step: number;
  toolCallId: string;
  toolName: string;
  input: unknown;
  isError: boolean;
  /** The tool's result; absent when `isError`. */
  output?: unknown;
  /** The message the model got for a failed call. */
  error?: string;
}

/** One model call and what its tool calls returned. */
export interface AgentStep {
  /** 0-based. */
  index: number;
  text: string;
  finishReason: string;
  toolCalls: AgentToolCall[];
  usage: AgentUsage;
}

/** Token counts; `undefined` where the provider does not report them. */
export interface AgentUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens: number | undefined;
}

/** What a run returns. */
export interface AgentRunResult {
  /** The model's final text. */
  text: string;
  steps: AgentStep[];
  /** Every tool call of every step, in order. */
  toolCalls: AgentToolCall[];
  /** `git diff` of the workspace at the end (new files included); `''` outside a git repo. */
  diff: string;
  usage: AgentUsage;
  sandboxId: string;
  /** The provider that served the sandbox (for a composite: which vendor). */
  providerName: string;
}
