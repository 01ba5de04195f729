/**
 * exec-big-output: a command printing 1 GiB through an adapter with the default 1 MiB cap, its
 * output captured where it runs (a log file in the sandbox; only head and tail come back).
 *
 * Per round, interleaved:
 * - `head -c N /dev/zero` through `client.exec` (captured);
 * - the same command redirected to a file in the sandbox, outside the adapter (the baseline): on
 *   local a plain `sh -c 'cmd > file'` in the sandbox directory, on Docker the CLI's
 *   `docker exec <c> sh -c 'cmd > file'`; and the same redirect through the adapter.
 * Reports the wall ratio (goal ≤ 1.5×), this process's peak RSS growth while the command runs
 * (goal ≤ 64 MiB; read as VmHWM after resetting it via /proc/self/clear_refs, or sampled every
 * 5 ms where that is not possible), and the bytes this process read during the call (`rchar` of its
 * threads: socket and file reads; goal ≤ 2× the cap per stream, i.e. ≤ 2 MiB + framing).
 *
 * Run: pnpm tsx bench/exec-big-output.ts [local|docker] [bytes=1073741824] [rounds=3] [image]
 * (Docker: DOCKER_HOST=unix:///run/sandkit-podman.sock)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { SandboxHandle } from '../packages/core/src/index.js';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';

const adapterName = process.argv[2] ?? 'local';
const bytes = Number(process.argv[3] ?? 2 ** 30);
const rounds = Number(process.argv[4] ?? 3);
const image = process.argv[5] ?? 'localhost/sandkit-sandbox:bookworm';
if (adapterName !== 'local' && adapterName !== 'docker')
  throw new RangeError('adapter must be local or docker');
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

const handle: SandboxHandle = await (adapterName === 'docker'
  ? createDockerSandboxAdapter({ image })
  : createLocalSandboxAdapter()
).create();
const container =
  adapterName === 'docker' ? (await handle.client.exec('cat /etc/hostname')).stdout.trim() : undefined;
/** The baseline: the command redirected to a file in the sandbox, outside the adapter. */
function plainRedirect(): number {
  const started = performance.now();
  if (container === undefined)
    execFileSync('sh', ['-c', `${command} > bench-baseline.out`], { cwd: handle.workdir });
  else execFileSync('docker', ['exec', container, 'sh', '-c', `${command} > /tmp/bench-baseline.out`]);
  return performance.now() - started;
}

await handle.client.exec('head -c 1048576 /dev/zero'); // warm up
const rows: string[] = [];
const walls = { captured: [] as number[], redirect: [] as number[], plain: [] as number[] };
let worstGrowth = 0;
let worstRead = 0;
for (let round = 0; round < rounds; round++) {
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
  const started = performance.now();
  const result = await handle.client.exec(command, { timeoutMs: 600_000 });
  const wall = performance.now() - started;
  const readBytes = readChars() - readBefore;
  if (sampler) clearInterval(sampler);
  const kernel = canReset ? kernelPeakRss() : undefined;
  const growth = Math.max(sampled, kernel ?? 0) - baseline;
  worstGrowth = Math.max(worstGrowth, growth);
  worstRead = Math.max(worstRead, readBytes);
  if (result.stdoutBytes !== bytes || result.stdout.length !== cap || !result.stdoutTruncated) {
    throw new RangeError(
      `unexpected result: ${result.stdoutBytes} bytes counted, ${result.stdout.length} kept`,
    );
  }
  if (result.outputLog) await handle.client.exec(`rm -f '${result.outputLog.stdout}'`);
  const redirectStarted = performance.now();
  await handle.client.exec(`${command} > bench-redirect.out`, { timeoutMs: 600_000 });
  const redirect = performance.now() - redirectStarted;
  const plain = plainRedirect();
  walls.captured.push(wall);
  walls.redirect.push(redirect);
  walls.plain.push(plain);
  rows.push(
    `| ${round + 1} | ${wall.toFixed(0)} | ${redirect.toFixed(0)} | ${plain.toFixed(0)} | ${(wall / plain).toFixed(2)} | ${mib(growth).toFixed(1)} | ${kernel === undefined ? 'n/a' : mib(kernel - baseline).toFixed(1)} | ${mib(readBytes).toFixed(2)} |`,
  );
}
await handle.client.exec('rm -f bench-redirect.out bench-baseline.out /tmp/bench-baseline.out');
await handle.destroy();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const ratio = median(walls.captured) / median(walls.plain);
const baselineName = adapterName === 'docker' ? "`docker exec c sh -c 'cmd > file'`" : "`sh -c 'cmd > file'`";
console.log(
  `exec-big-output (${adapterName}): \`${command}\`, default cap ${mib(cap)} MiB, ${rounds} rounds (Node ${process.version})`,
);
console.log(
  `| round | captured exec wall ms | adapter \`cmd > file\` wall ms | ${baselineName} ms | ratio vs baseline | peak RSS growth MiB | VmHWM growth MiB | MiB read by this process |`,
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(
  `median wall ratio vs ${baselineName}: ${ratio.toFixed(2)} — goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}`,
);
console.log(
  `worst peak RSS growth: ${mib(worstGrowth).toFixed(1)} MiB — goal ≤ 64: ${mib(worstGrowth) <= 64 ? 'met' : 'NOT met'}`,
);
console.log(
  `worst bytes read by this process during the call: ${mib(worstRead).toFixed(2)} MiB — goal ≤ 2× cap (${mib(2 * cap)} MiB) + 64 KiB of framing: ${worstRead <= 2 * cap + 65536 ? 'met' : 'NOT met'}`,
);
