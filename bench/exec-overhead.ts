/**
 * exec-overhead: the cost sandkit adds around one short command.
 *
 * 500 sequential `true` runs through `executeToolCall` → a `defineTool` tool → the local adapter's
 * `exec` (which runs the shell through execa, output into log files), against a bare
 * `execa('/bin/sh', ['-c', 'true'])` and a raw `child_process.spawn` of the same, measured in the
 * same run and interleaved (so host load hits all alike). Goal: median ratio ≤ 1.1× bare execa;
 * the ratio against raw spawn is reported too (the former goal was ≤ 1.2× raw spawn).
 *
 * Run: pnpm tsx bench/exec-overhead.ts [iterations=500]
 */
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import { z } from 'zod';
import { defineTool, executeToolCall } from '../packages/core/src/index.js';
import { baseEnvironment, createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';

const iterations = Number(process.argv[2] ?? 500);
const warmup = 30;

function rawSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

/** execa's own bare call: defaults (pipes, buffered output), nothing of ours. */
async function bareExeca(): Promise<void> {
  await execa('/bin/sh', ['-c', 'true']);
}

/** Raw spawn with what the adapter adds: its own session (process group) and its small environment. */
function rawSpawnLikeAdapter(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: adapterEnv,
      cwd: handle.workdir,
    });
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

const handle = await createLocalSandboxAdapter().create();
const adapterEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/',
  ...baseEnvironment,
};
const execTool = defineTool({
  name: 'exec',
  description: 'Runs a shell command in the sandbox.',
  inputSchema: z.object({ command: z.string().min(1).describe('POSIX sh command line') }),
  outputSchema: z.object({
    exitCode: z.number().int().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    timedOut: z.boolean(),
  }),
  permission: 'exec',
  async execute({ command }, { signal }) {
    const result = await handle.client.exec(command, { signal, timeoutMs: 60_000 });
    return {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      timedOut: result.timedOut,
    };
  },
});
const call = { type: 'tool_use', id: 'toolu_bench', name: 'exec', input: { command: 'true' } } as const;
async function throughTool(): Promise<void> {
  const result = await executeToolCall([execTool], call);
  if (result.isError) throw new TypeError(`exec tool failed: ${JSON.stringify(result.content)}`);
}
async function adapterOnly(): Promise<void> {
  await handle.client.exec('true');
}

async function time(task: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)] ?? 0;

for (let index = 0; index < warmup; index++) {
  await rawSpawn();
  await throughTool();
  await adapterOnly();
  await rawSpawnLikeAdapter();
  await bareExeca();
}
const samples = {
  raw: [] as number[],
  rawLike: [] as number[],
  tool: [] as number[],
  adapter: [] as number[],
  execa: [] as number[],
};
for (let index = 0; index < iterations; index++) {
  // Rotate the order so neither path always runs first after a GC or a scheduler hiccup.
  const order = [
    ['raw', rawSpawn],
    ['tool', throughTool],
    ['adapter', adapterOnly],
    ['rawLike', rawSpawnLikeAdapter],
    ['execa', bareExeca],
  ] as const;
  for (let step = 0; step < order.length; step++) {
    const [name, task] = order[(index + step) % order.length]!;
    samples[name].push(await time(task));
  }
}
await handle.destroy();

const row = (name: string, values: number[]) =>
  `| ${name} | ${median(values).toFixed(3)} | ${percentile(values, 0.9).toFixed(3)} | ${(median(values) / median(samples.raw)).toFixed(3)} | ${(median(values) / median(samples.execa)).toFixed(3)} |`;
console.log(
  `exec-overhead: ${iterations} sequential runs of \`true\` each (Node ${process.version}, ${process.platform})`,
);
console.log('| path | median ms | p90 ms | median ratio vs raw spawn | vs bare execa |');
console.log('|---|---|---|---|---|');
console.log(row("raw spawn('/bin/sh', ['-c', 'true'])", samples.raw));
console.log(row("bare execa('/bin/sh', ['-c', 'true'])", samples.execa));
console.log(row('raw spawn, detached + adapter env (same syscalls as the adapter)', samples.rawLike));
console.log(row('local adapter exec', samples.adapter));
console.log(row('executeToolCall → defineTool → local exec', samples.tool));
const execaRatio = median(samples.tool) / median(samples.execa);
console.log(
  `ratio (executeToolCall path / bare execa, medians): ${execaRatio.toFixed(3)} — goal ≤ 1.1: ${execaRatio <= 1.1 ? 'met' : 'NOT met'}`,
);
console.log(
  `ratio (local adapter exec / bare execa, medians): ${(median(samples.adapter) / median(samples.execa)).toFixed(3)}`,
);
const ratio = median(samples.tool) / median(samples.raw);
console.log(`ratio (executeToolCall path / raw spawn, medians): ${ratio.toFixed(3)}`);
const likeRatio = median(samples.tool) / median(samples.rawLike);
console.log(
  `ratio (executeToolCall path / raw spawn with the adapter's env and session, medians): ${likeRatio.toFixed(3)}`,
);
