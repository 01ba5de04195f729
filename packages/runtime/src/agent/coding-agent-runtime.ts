/**
 * The coding-agent loop on the Vercel AI SDK 6: `generateText` with the tools of one sandbox and a
 * step limit (`stopWhen: stepCountIs(maxSteps)`), so any AI SDK model drives it.
 * @module
 */
import { SandboxError, SandkitError, SandkitErrorCode, toAISDKTools } from '@sandkit/core';
import { generateText, type StepResult, stepCountIs, type ToolSet } from 'ai';
import { recordToolCalls } from '../record/record-tool-calls.js';
import { createRecordWriter, type RecordWriter } from '../record/record-writer.js';
import type {
  AgentRunOptions,
  AgentRunResult,
  AgentStep,
  AgentToolCall,
  AgentUsage,
  CodingAgentRuntimeOptions,
} from './agent-run-types.js';
import { defaultCodingTools } from './default-coding-tools.js';
import { workspaceDiff } from './workspace-diff.js';

/** A configured agent; each `run()` is independent. */
export interface CodingAgentRuntime {
  /**
   * Acquires a sandbox, runs `setup`, lets the model work with the tools for up to `maxSteps` steps,
   * takes the diff, and ALWAYS releases the sandbox (destroying it when the sandbox failed).
   *
   * Tool failures the model can fix go back to it as error results and the run goes on.
   * @throws SandboxError when the sandbox failed (acquire, or a tool hit a dead sandbox: codes
   *   `sandbox_unavailable`, `sandbox_destroyed`, `sandbox_gone`, `sandbox_expired`; the model is stopped).
   * @throws SandkitError `aborted` when `signal` aborts; `details.steps` / `details.toolCalls` hold the
   *   steps finished so far (every call of a step has its one result, aborted calls as errors).
   */
  run(options: AgentRunOptions): Promise<AgentRunResult>;
}

/**
 * Creates a coding-agent runtime.
 * @throws SandkitError `invalid_option` when `maxSteps` is not an integer ≥ 1.
 */
export function createCodingAgentRuntime(options: CodingAgentRuntimeOptions): CodingAgentRuntime {
  const { sandboxProvider, model, system, maxSteps, onStep, record, expectedDurationMs } = options;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `maxSteps must be an integer ≥ 1, got ${maxSteps}`,
    });
  }
  const makeTools = options.tools ?? ((client, workdir) => defaultCodingTools(client, workdir));

  return {
    async run({ task, setup, signal }) {
      const session = await sandboxProvider.acquire({ signal, expectedDurationMs });
      const steps: AgentStep[] = [];
      const controller = new AbortController();
      const onAbort = (): void => controller.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      let sandboxFailure: unknown;
      let outcome: unknown;
      try {
        await setup?.(session);
        let writer: RecordWriter | undefined;
        let tools = makeTools(session.client, session.workdir);
        if (record) {
          const target = typeof record === 'function' ? record(session) : record;
          writer = createRecordWriter({ ...target, client: session.client });
          tools = recordToolCalls(tools, writer);
        }
        const result = await generateText({
          model,
          system,
          prompt: task,
          tools: toAISDKTools(tools) as unknown as ToolSet,
          stopWhen: stepCountIs(maxSteps),
          abortSignal: controller.signal,
          onStepFinish: async (raw) => {
            const step = toAgentStep(raw, steps.length);
            steps.push(step);
            const failed = raw.content.find(
              (part) => part.type === 'tool-error' && SandboxError.isInstance(part.error),
            );
            if (failed && failed.type === 'tool-error') {
              sandboxFailure = failed.error;
              controller.abort(failed.error);
            }
            await onStep?.(step);
          },
        });
        const { diff } = await workspaceDiff(session.client, session.workdir, signal);
        const run: AgentRunResult = {
          text: result.text,
          steps,
          toolCalls: steps.flatMap((s) => s.toolCalls),
          diff,
          usage: toUsage(result.totalUsage),
          sandboxId: session.id,
          providerName: session.providerName,
        };
        await writer?.write({
          type: 'run',
          task,
          text: run.text,
          steps: steps.length,
          usage: run.usage,
          sandboxId: run.sandboxId,
          providerName: run.providerName,
          diff,
        });
        return run;
      } catch (error) {
        outcome = error;
        if (sandboxFailure !== undefined) throw sandboxFailure;
        if (signal?.aborted) {
          const toolCalls = steps.flatMap((s) => s.toolCalls);
          throw new SandkitError({
            code: SandkitErrorCode.aborted,
            message: 'the agent run was aborted',
            cause: signal.reason,
            details: { steps, toolCalls },
          });
        }
        throw error;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        const destroy = sandboxFailure !== undefined || isSandboxDown(outcome);
        await session.release({ destroy });
      }
    },
  };
}

function toAgentStep(raw: StepResult<ToolSet>, index: number): AgentStep {
  const toolCalls: AgentToolCall[] = raw.toolCalls.map((call) => {
    const base = { step: index, toolCallId: call.toolCallId, toolName: call.toolName, input: call.input };
    const done = raw.content.find(
      (part) =>
        (part.type === 'tool-result' || part.type === 'tool-error') && part.toolCallId === call.toolCallId,
    );
    if (done?.type === 'tool-result') return { ...base, isError: false, output: done.output };
    if (done?.type === 'tool-error') return { ...base, isError: true, error: errorMessage(done.error) };
    return { ...base, isError: true, error: 'the tool call got no result' };
  });
  return { index, text: raw.text, finishReason: raw.finishReason, toolCalls, usage: toUsage(raw.usage) };
}

function toUsage(usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number }): AgentUsage {
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens };
}

/** Codes that mean the sandbox itself is gone; other `SandboxError`s (`file_not_found`, `cwd_not_found`) go to the model. */
const sandboxDownCodes: ReadonlySet<string> = new Set([
  SandkitErrorCode.sandboxStartFailed,
  SandkitErrorCode.sandboxUnavailable,
  SandkitErrorCode.sandboxDestroyed,
  SandkitErrorCode.sandboxGone,
  SandkitErrorCode.sandboxExpired,
]);

function isSandboxDown(error: unknown): boolean {
  return SandboxError.isInstance(error) && sandboxDownCodes.has(error.code);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
