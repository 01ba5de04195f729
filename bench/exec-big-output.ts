/**
 * exec-big-output: a command printing 1 GiB through the local adapter with the default 1 MiB cap.
 *
 * Reports the peak growth of this process's RSS while the output streams (goal ≤ 64 MiB: the cap
 * applies while streaming, so memory must not grow with the output) and the wall time against the
 * same command with its output redirected to /dev/null (goal ≤ 1.5×), both run through the adapter.
 * RSS is sampled every 5 ms and, on Linux, also read as VmHWM after resetting it via
 * /proc/self/clear_refs.
 *
 * A third column runs the same command with a raw `child_process.spawn` whose stdout is read and
 * thrown away, to separate the adapter's own cost from the cost of Node reading a pipe at all.
 *
 * Run: pnpm tsx bench/exec-big-output.ts [bytes=1073741824] [rounds=3]
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';

const bytes = Number(process.argv[2] ?? 2 ** 30);
const rounds = Number(process.argv[3] ?? 3);
const command = `head -c ${bytes} /dev/zero`;
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
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Wall ms of the command through a bare spawn whose output is read and dropped. */
function rawPiped(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', () => undefined);
    child.once('error', reject);
    child.once('close', () => resolve(performance.now() - started));
  });
}

const handle = await createLocalSandboxAdapter().create();
await handle.client.exec('head -c 1048576 /dev/zero'); // warm up
const rows: string[] = [];
const walls = { piped: [] as number[], devnull: [] as number[], raw: [] as number[] };
let worstGrowth = 0;
for (let round = 0; round < rounds; round++) {
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  const canReset = resetPeak();
  let sampled = baseline;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage().rss);
  }, 5);
  const result = await handle.client.exec(command);
  clearInterval(sampler);
  const kernel = canReset ? kernelPeakRss() : undefined;
  const growth = Math.max(sampled, kernel ?? 0) - baseline;
  worstGrowth = Math.max(worstGrowth, growth);
  if (result.stdoutBytes !== bytes || result.stdout.length !== 2 ** 20 || !result.stdoutTruncated) {
    throw new RangeError(
      `unexpected result: ${result.stdoutBytes} bytes counted, ${result.stdout.length} kept`,
    );
  }
  const devnull = await handle.client.exec(`${command} > /dev/null`);
  const raw = await rawPiped();
  walls.piped.push(result.durationMs);
  walls.devnull.push(devnull.durationMs);
  walls.raw.push(raw);
  rows.push(
    `| ${round + 1} | ${result.durationMs.toFixed(0)} | ${devnull.durationMs.toFixed(0)} | ${raw.toFixed(0)} | ${(result.durationMs / devnull.durationMs).toFixed(2)} | ${(result.durationMs / raw).toFixed(2)} | ${mib(growth).toFixed(1)} | ${kernel === undefined ? 'n/a' : mib(kernel - baseline).toFixed(1)} |`,
  );
}
await handle.destroy();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const ratio = median(walls.piped) / median(walls.devnull);
console.log(
  `exec-big-output: \`${command}\` through the local adapter, default cap (Node ${process.version})`,
);
console.log(
  '| round | adapter wall ms (piped, capped) | adapter wall ms (> /dev/null) | raw spawn wall ms (piped, dropped) | ratio vs /dev/null | ratio vs raw pipe | peak RSS growth MiB | VmHWM growth MiB |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(
  `median wall ratio vs > /dev/null: ${ratio.toFixed(2)} — goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}`,
);
console.log(`median wall ratio vs a raw Node pipe: ${(median(walls.piped) / median(walls.raw)).toFixed(2)}`);
console.log(
  `worst peak RSS growth: ${mib(worstGrowth).toFixed(1)} MiB — goal ≤ 64: ${mib(worstGrowth) <= 64 ? 'met' : 'NOT met'}`,
);
