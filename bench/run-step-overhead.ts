/**
 * run-step-overhead: what `sandkit run`'s agent loop adds per step, beyond the tools' own
 * execution. One instance of the embedded dataset on a local sandbox, with an in-process model
 * (`MockLanguageModelV3`, no network, answers at once) that calls `exec` with `echo step` on every
 * turn up to the step limit. For each step, the gap is the time from the model's answer to the
 * next model request, minus the tool's own execution (`duration_ms` of the call, as the AI SDK
 * measured it): the loop's bookkeeping (the AI SDK's step handling, sandkit's trajectory step,
 * cost and format checks, the tool wrapper's validation and result shaping).
 *
 * Baseline, in the same run and the same kind of sandbox: the same tool call made directly
 * (`executeToolCall` on the same tool set), timed per call. Printed: the median gap (goal ≤ 5 ms),
 * and the median loop step (gap + tool) against the median direct call, as a ratio.
 *
 * Run: `pnpm tsx bench/run-step-overhead.ts [steps=200] [rounds=3]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeToolCall } from '../packages/core/src/execute-tool-call.js';
import { defaultCodingTools } from '../packages/runtime/src/agent/default-coding-tools.js';
import { buildExampleRepos } from '../packages/runtime/src/example-dataset/build-example-repos.js';
import { runAgentBenchmark } from '../packages/runtime/src/run/run-agent-benchmark.js';
import type { RunAgentBenchmarkOptions } from '../packages/runtime/src/run/run-options.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import { median } from './bench-stats.js';

const steps = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 3);
const work = mkdtempSync(join(tmpdir(), 'bench-run-step-'));
const dataset = join(import.meta.dirname, '../packages/runtime/datasets/swebench-mini/instances.jsonl');
const usage = {
  inputTokens: { total: 1000, noCache: 1000, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

/**
 * The model, an AI SDK v3 language model written out (the `ai/test` mock is not a dependency of
 * the repository root): records when each request arrives and when its answer leaves.
 */
function echoModel(requests: number[], answers: number[]): RunAgentBenchmarkOptions['model'] {
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'echo',
    supportedUrls: {},
    doStream: () => Promise.reject(new Error('the bench model does not stream')),
    doGenerate: async (options: { prompt: { role: string }[] }) => {
      requests.push(performance.now());
      const turn = options.prompt.filter((m) => m.role === 'assistant').length;
      answers.push(performance.now());
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `c${turn}`,
            toolName: 'exec',
            input: JSON.stringify({ command: 'echo step' }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  } as unknown as RunAgentBenchmarkOptions['model'];
}

try {
  const mirrors = join(work, 'mirrors');
  buildExampleRepos(mirrors);
  const gaps: number[] = [];
  const loopSteps: number[] = [];
  const direct: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const requests: number[] = [];
    const answers: number[] = [];
    const run = await runAgentBenchmark({
      dataset,
      reposDir: mirrors,
      cacheDir: join(work, 'cache'),
      out: join(work, `out-${round}`),
      instanceIds: ['sandkit-mini__pager-1'],
      stepLimit: steps,
      modelName: 'mock:echo',
      model: echoModel(requests, answers),
      costOf: () => 0,
      workers: 1,
    });
    const traj = run.trajectories.get('sandkit-mini__pager-1');
    if (traj?.exit_status !== 'step_limit') throw new Error(`unexpected end: ${traj?.exit_status}`);
    // gap i: answer i → request i+1, less the tool's execution
    for (let i = 0; i + 1 < requests.length; i++) {
      const tool = traj.steps[i]?.tool_calls[0]?.duration_ms ?? Number.NaN;
      const between = (requests[i + 1] as number) - (answers[i] as number);
      gaps.push(between - tool);
      loopSteps.push(between);
    }
    // the baseline: the same call, straight to the tool, in a fresh local sandbox with the same tree
    const handle = await createLocalSandboxAdapter({ root: join(work, 'direct') }).create();
    try {
      const tools = defaultCodingTools(handle.client, handle.workdir);
      for (let i = 0; i < steps; i++) {
        const started = performance.now();
        const result = await executeToolCall(tools, { name: 'exec', input: { command: 'echo step' } });
        direct.push(performance.now() - started);
        if (result.isError) throw new Error(`direct exec failed: ${JSON.stringify(result)}`);
      }
    } finally {
      await handle.destroy();
    }
  }
  const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * q)];
  console.log(
    `run-step-overhead: ${rounds} rounds × ${steps} steps, load ${loadavg()[0]?.toFixed(1)} (node ${process.version})`,
  );
  console.log(
    `  harness gap per step (answer → next request, tool excluded): median ${median(gaps).toFixed(2)} ms, p90 ${p(gaps, 0.9)?.toFixed(2)} ms (goal ≤ 5 ms median)`,
  );
  console.log(
    `  loop step (gap + tool) median ${median(loopSteps).toFixed(2)} ms vs direct executeToolCall median ${median(direct).toFixed(2)} ms: ${(median(loopSteps) / median(direct)).toFixed(3)}×`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
