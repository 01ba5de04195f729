/**
 * exec-big-output: a command printing 1 GiB through an adapter with the default 1 MiB cap, its
 * output captured where it runs (a log file in the sandbox; only head and tail come back).
 *
 * Per round, in an order that rotates from round to round, each run after removing the files the
 * runs before it wrote and a `sync` (untimed, so no run pays for another's page-cache writeback):
 * - `head -c N /dev/zero` through `client.exec` (captured);
 * - the same command redirected to a file in the sandbox, outside the adapter (the baseline): on
 *   local a plain `sh -c 'cmd > file'` in the sandbox directory, on Docker the CLI's
 *   `docker exec <c> sh -c 'cmd > file'`, on E2B the SDK's own `sandbox.commands.run('cmd > file')`
 *   on the same sandbox (the vendor's raw call); and the same redirect through the adapter.
 * Reports the median over the rounds of the captured / baseline wall ratio (goal ≤ 1.5×), this process's peak RSS growth while the command runs
 * (goal ≤ 64 MiB; read as VmHWM after resetting it via /proc/self/clear_refs, or sampled every
 * 5 ms where that is not possible), and the bytes this process read during the call (`rchar` of its
 * threads: socket and file reads; goal ≤ 2× the cap per stream, i.e. ≤ 2 MiB + framing).
 *
 * E2B: the real adapter and `e2b` SDK in debug mode against the project's envd stand-in, which
 * runs in a child process (bench/e2b-stand-in-process.ts) so that the memory and the bytes read
 * counted here are the client's alone, not the stand-in's (it reads the commands' pipes and the
 * HTTP requests). A head and tail this big do not come back in the command's record (base64 inside
 * envd's base64 in Connect JSON, 16/9 of their size) but raw through envd's `GET /files`, one more
 * request (see packages/sandbox-adapters/src/e2b/e2b-exec-slices.ts).
 *
 * Run: pnpm tsx bench/exec-big-output.ts [local|docker|e2b] [bytes=1073741824] [rounds=7] [image]
 * (Docker: DOCKER_HOST=unix:///run/sandkit-podman.sock)
 */
import { execFileSync, fork } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { SandboxHandle } from '../packages/core/src/index.js';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { createE2BSandboxAdapter } from '../packages/sandbox-adapters/src/e2b/index.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import { median } from './bench-stats.js';
import type { StandInReady } from './e2b-stand-in-process.js';

const adapterName = process.argv[2] ?? 'local';
const bytes = Number(process.argv[3] ?? 2 ** 30);
const rounds = Number(process.argv[4] ?? 7);
const image = process.argv[5] ?? 'localhost/sandkit-sandbox:bookworm';
if (adapterName !== 'local' && adapterName !== 'docker' && adapterName !== 'e2b')
  throw new RangeError('adapter must be local, docker or e2b');
const command = `head -c ${bytes} /dev/zero`;
const cap = 2 ** 20;
const mib = (value: number) => value / 2 ** 20;

/** Resets the kernel's peak-RSS mark; `false` where that is not possible. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
function kernelPeakRss(): number | undefined {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : undefined;
}
/**
 * Bytes this process's threads have read with read-like syscalls (files, sockets, pipes): the sum
 * of `rchar` over /proc/self/task/<tid>/io. (/proc/self/io would also count reaped children, such
 * as the `head` that reads /dev/zero on the local adapter.)
 */
function readChars(): number {
  let total = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    total += Number(/rchar: (\d+)/.exec(readFileSync(`/proc/self/task/${tid}/io`, 'utf8'))?.[1] ?? 0);
  }
  return total;
}

/** The sandbox under test and its baseline: the command redirected to a file in the sandbox, outside the adapter. */
interface Target {
  handle: SandboxHandle;
  /** Runs the baseline once. */
  baseline(): Promise<void>;
  /** The file the baseline writes, as `rm` in the sandbox directory sees it. */
  baselineFile: string;
  /** The baseline's name in the report. */
  baselineName: string;
  close(): Promise<void>;
}

async function localTarget(): Promise<Target> {
  const handle = await createLocalSandboxAdapter().create();
  return {
    handle,
    baseline: async () => {
      execFileSync('sh', ['-c', `${command} > bench-baseline.out`], { cwd: handle.workdir });
    },
    baselineFile: 'bench-baseline.out',
    baselineName: "`sh -c 'cmd > file'`",
    close: () => handle.destroy(),
  };
}

async function dockerTarget(): Promise<Target> {
  const handle = await createDockerSandboxAdapter({ image }).create();
  const container = (await handle.client.exec('cat /etc/hostname')).stdout.trim();
  return {
    handle,
    baseline: async () => {
      execFileSync('docker', ['exec', container, 'sh', '-c', `${command} > /tmp/bench-baseline.out`]);
    },
    baselineFile: '/tmp/bench-baseline.out',
    baselineName: "`docker exec c sh -c 'cmd > file'`",
    close: () => handle.destroy(),
  };
}

/** The real E2B adapter (debug mode) against the envd stand-in, which runs in a child process. */
async function e2bTarget(): Promise<Target> {
  const child = fork(new URL('./e2b-stand-in-process.ts', import.meta.url), { stdio: 'inherit' });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const ready = await new Promise<StandInReady>((done, fail) => {
    child.once('message', (message) => done(message as StandInReady));
    child.once('exit', (code) =>
      fail(new Error(`the stand-in process exited (${code}) before it was ready`)),
    );
  });
  const handle = await createE2BSandboxAdapter({
    debug: true,
    sandboxUrl: ready.url,
    workdir: ready.root,
  }).create();
  return {
    handle,
    baseline: async () => {
      // The vendor's raw call on the same sandbox (`bash -l -c` under envd, as the adapter's wrapper).
      await handle.sandbox.commands.run(`${command} > bench-baseline.out`, {
        cwd: handle.workdir,
        timeoutMs: 600_000,
      });
    },
    baselineFile: 'bench-baseline.out',
    baselineName: "SDK `commands.run('cmd > file')`",
    async close() {
      await handle.destroy();
      child.send('close');
      await exited;
    },
  };
}

const target = await (adapterName === 'docker'
  ? dockerTarget()
  : adapterName === 'e2b'
    ? e2bTarget()
    : localTarget());
const { handle } = target;

/**
 * Untimed, before every timed run: removes what the runs wrote (a removed file's dirty pages are
 * dropped, not written back) and flushes the rest with `sync`, so no run pays for the writeback of
 * the 1 GiB the run before it left in the page cache.
 */
async function settle(kept: string[]): Promise<void> {
  const files = ['bench-redirect.out', target.baselineFile, ...kept];
  await handle.client.exec(`rm -f ${files.map((file) => `'${file}'`).join(' ')}`);
  kept.length = 0;
  execFileSync('sync');
}

/** One captured run, with its memory and bytes read; throws on a wrong result. */
async function captured(
  kept: string[],
): Promise<{ growth: number; kernel: number | undefined; readBytes: number }> {
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  const canReset = resetPeak();
  let sampled = baseline;
  // Sampling reads /proc on every tick, which would count as bytes read: only without VmHWM.
  const sampler = canReset
    ? undefined
    : setInterval(() => {
        sampled = Math.max(sampled, process.memoryUsage().rss);
      }, 5);
  const readBefore = readChars();
  const result = await handle.client.exec(command, { timeoutMs: 600_000 });
  const readBytes = readChars() - readBefore;
  if (sampler) clearInterval(sampler);
  const kernel = canReset ? kernelPeakRss() : undefined;
  if (result.stdoutBytes !== bytes || result.stdout.length !== cap || !result.stdoutTruncated) {
    throw new RangeError(
      `unexpected result: ${result.stdoutBytes} bytes counted, ${result.stdout.length} kept`,
    );
  }
  if (result.outputLog) kept.push(result.outputLog.stdout, result.outputLog.stderr);
  return {
    growth: Math.max(sampled, kernel ?? 0) - baseline,
    kernel: kernel === undefined ? undefined : kernel - baseline,
    readBytes,
  };
}

await handle.client.exec('head -c 1048576 /dev/zero'); // warm up
const rows: string[] = [];
const walls = { captured: [] as number[], redirect: [] as number[], plain: [] as number[] };
const ratios: number[] = [];
let worstGrowth = 0;
let worstRead = 0;
const kept: string[] = [];
for (let round = 0; round < rounds; round++) {
  let memory: Awaited<ReturnType<typeof captured>> | undefined;
  const wall = { captured: 0, redirect: 0, plain: 0 };
  const paths: [keyof typeof wall, () => Promise<unknown>][] = [
    [
      'captured',
      async () => {
        memory = await captured(kept);
      },
    ],
    ['redirect', () => handle.client.exec(`${command} > bench-redirect.out`, { timeoutMs: 600_000 })],
    ['plain', () => target.baseline()],
  ];
  // The order rotates each round, so no path always runs first or after the same other path.
  for (let index = 0; index < paths.length; index++) {
    const [name, task] = paths[(index + round) % paths.length] as (typeof paths)[number];
    await settle(kept);
    const started = performance.now();
    await task();
    wall[name] = performance.now() - started;
  }
  if (memory === undefined) throw new RangeError('the captured run did not run');
  worstGrowth = Math.max(worstGrowth, memory.growth);
  worstRead = Math.max(worstRead, memory.readBytes);
  walls.captured.push(wall.captured);
  walls.redirect.push(wall.redirect);
  walls.plain.push(wall.plain);
  ratios.push(wall.captured / wall.plain);
  rows.push(
    `| ${round + 1} | ${wall.captured.toFixed(0)} | ${wall.redirect.toFixed(0)} | ${wall.plain.toFixed(0)} | ${(wall.captured / wall.plain).toFixed(2)} | ${mib(memory.growth).toFixed(1)} | ${memory.kernel === undefined ? 'n/a' : mib(memory.kernel).toFixed(1)} | ${mib(memory.readBytes).toFixed(2)} |`,
  );
}
await settle(kept);
await target.close();

const ratio = median(ratios);
const { baselineName } = target;
console.log(
  `exec-big-output (${adapterName}): \`${command}\`, default cap ${mib(cap)} MiB, ${rounds} rounds (Node ${process.version})`,
);
console.log(
  `| round | captured exec wall ms | adapter \`cmd > file\` wall ms | ${baselineName} ms | ratio vs baseline | peak RSS growth MiB | VmHWM growth MiB | MiB read by this process |`,
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(
  `median of the per-round wall ratios vs ${baselineName}: ${ratio.toFixed(2)} (ratio of the median walls: ${(median(walls.captured) / median(walls.plain)).toFixed(2)}; adapter \`cmd > file\` vs baseline: ${(median(walls.redirect) / median(walls.plain)).toFixed(2)}) — goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}`,
);
console.log(
  `worst peak RSS growth: ${mib(worstGrowth).toFixed(1)} MiB — goal ≤ 64: ${mib(worstGrowth) <= 64 ? 'met' : 'NOT met'}`,
);
console.log(
  `worst bytes read by this process during the call: ${mib(worstRead).toFixed(2)} MiB — goal ≤ 2× cap (${mib(2 * cap)} MiB) + 64 KiB of framing: ${worstRead <= 2 * cap + 65536 ? 'met' : 'NOT met'}`,
);
if (adapterName === 'e2b') {
  // Inline in the record they would cross as base64 inside envd's base64: 16/9 × 2 MiB.
  console.log(
    `E2B: head + tail (2 MiB) read raw through GET /files: worst read / 2 MiB = ${(worstRead / (2 * cap)).toFixed(3)} (inline as base64 in base64 it would be 1.778)`,
  );
}
