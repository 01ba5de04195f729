/**
 * read-far: read_file at line 1,000,000 of a 1 GB file (limit 50) against `sed -n 'N,+49p'` on
 * the same file, both through the local adapter's exec, in the same run.
 *
 * The file is 1,048,576 distinct lines of 1000 bytes (`seq -f '%0999.0f'`), generated in a temp
 * sandbox and deleted at the end. Reports the median wall time of each, their ratio (goal ≤ 1.3×),
 * a second baseline that quits after the window (`sed -n 'N,Mp;Mq'`), and the peak growth of this
 * process's RSS during the reads (goal: flat, the window is cut inside the sandbox).
 *
 * Run: pnpm tsx bench/read-far.ts [rounds=5] [line=1000000] [lines=1048576]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import { createReadFileTool } from '../packages/tools/src/files/read-file.js';

const rounds = Number(process.argv[2] ?? 5);
const line = Number(process.argv[3] ?? 1_000_000);
const totalLines = Number(process.argv[4] ?? 1_048_576);
const limit = 50;
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
function kernelPeakRss(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

const handle = await createLocalSandboxAdapter().create();
try {
  const { client } = handle;
  const made = await client.exec(`seq -f '%0999.0f' 1 ${totalLines} > big.txt && wc -c < big.txt`);
  if (made.exitCode !== 0) throw new Error(`generating the file failed: ${made.stderr}`);
  console.log(
    `file: ${made.stdout.trim()} bytes, ${totalLines} lines; reading lines ${line}-${line + limit - 1}`,
  );
  const tool = createReadFileTool(client, { root: handle.workdir });
  const expected = await client.exec(`sed -n '${line},+${limit - 1}p' big.txt`);
  const times = { tool: [] as number[], sed: [] as number[], sedQuit: [] as number[] };
  let growth = 0;
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    await client.exec(`sed -n '${line},+${limit - 1}p' big.txt`);
    times.sed.push(performance.now() - started);

    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    const canReset = resetPeak();
    let sampled = before;
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, process.memoryUsage().rss);
    }, 5);
    started = performance.now();
    const result = await tool.call({ path: 'big.txt', offset: line, limit, lineNumbers: false });
    times.tool.push(performance.now() - started);
    clearInterval(sampler);
    growth = Math.max(growth, Math.max(sampled, canReset ? kernelPeakRss() : 0) - before);
    if (result.kind !== 'text' || `${result.content}\n` !== expected.stdout || result.startLine !== line) {
      throw new Error('read_file returned a different window than sed');
    }

    started = performance.now();
    await client.exec(`sed -n '${line},${line + limit - 1}p;${line + limit - 1}q' big.txt`);
    times.sedQuit.push(performance.now() - started);
  }
  const [toolMs, sed, sedQuit] = [median(times.tool), median(times.sed), median(times.sedQuit)];
  console.log(
    `read_file        median ${toolMs.toFixed(0)} ms  (runs: ${times.tool.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(
    `sed -n 'N,+49p'  median ${sed.toFixed(0)} ms  (runs: ${times.sed.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(
    `sed ... ;Mq      median ${sedQuit.toFixed(0)} ms  (runs: ${times.sedQuit.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(`ratio read_file / sed -n 'N,+49p': ${(toolMs / sed).toFixed(2)}x (goal <= 1.3x)`);
  console.log(`ratio read_file / sed with quit:   ${(toolMs / sedQuit).toFixed(2)}x`);
  console.log(`peak host RSS growth during read_file: ${mib(growth)} MiB`);
} finally {
  await handle.destroy();
}
