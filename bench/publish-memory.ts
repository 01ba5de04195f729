/**
 * publish-memory: host memory while the publish tool sends a 50 MiB file from a local sandbox to
 * an S3-compatible store (the real AWS SDK v3 against s3rver in its own process), against a
 * baseline measured in the same run: the same file read whole with `client.readFile` and handed to
 * the same publisher as bytes (what a tool without streaming would do).
 *
 * Each round runs each mode in a fresh child process (its own heap), which first publishes a 6 MiB
 * file (loads the SDK, warms the multipart path), collects garbage, resets the kernel's peak-RSS
 * mark (`/proc/self/clear_refs` 5), and reports VmHWM − VmRSS-before over the measured publish.
 * The store's process is not counted: it is another process. Goal: growth < 32 MiB for 50 MiB.
 *
 * Run: pnpm tsx bench/publish-memory.ts [rounds=3] [mib=50] [--assert]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import { createPublishTool } from '../packages/tools/src/publish/publish.js';
import { createS3Publisher } from '../packages/tools/src/publish/s3/index.js';
import { startS3StandIn } from '../packages/tools/test/publish/s3-stand-in.js';

type Mode = 'streamed' | 'buffered';
interface Measured {
  mode: Mode;
  growthBytes: number;
  wallMs: number;
}
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const status = async (field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(await readFile('/proc/self/status', 'utf8'))?.[1]) *
  1024;

if (process.argv[2] === '--child') await child(process.argv[3] as Mode, JSON.parse(process.argv[4]!));
else await parent();

async function parent(): Promise<void> {
  const args = process.argv.slice(2).filter((arg) => arg !== '--assert');
  const rounds = Number(args[0] ?? 3);
  const size = Number(args[1] ?? 50) * 2 ** 20;
  const s3 = await startS3StandIn('bench');
  const dir = await mkdtemp(join(tmpdir(), 'sandkit-publish-bench-'));
  try {
    await writeFile(join(dir, 'big.bin'), randomBytes(size));
    await writeFile(join(dir, 'warm.bin'), randomBytes(6 * 2 ** 20));
    const config = { dir, endpoint: s3.endpoint, bucket: s3.bucket, credentials: s3.credentials };
    console.log(
      `publish-memory: ${mib(size)} MiB file, ${rounds} rounds, one child process per mode and round`,
    );
    console.log(
      '| round | streamed growth | ÷ file | buffered growth | ÷ file | streamed ÷ buffered | streamed wall | buffered wall |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    const worst: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      // alternate the order, so neither mode always runs on a warmer machine
      const order: Mode[] = round % 2 ? ['streamed', 'buffered'] : ['buffered', 'streamed'];
      const got = new Map<Mode, Measured>();
      for (const mode of order) got.set(mode, await runChild(mode, config));
      const streamed = got.get('streamed')!;
      const buffered = got.get('buffered')!;
      worst.push(streamed.growthBytes);
      console.log(
        `| ${round} | ${mib(streamed.growthBytes)} MiB | ${(streamed.growthBytes / size).toFixed(3)} | ${mib(buffered.growthBytes)} MiB | ${(buffered.growthBytes / size).toFixed(3)} | ${(streamed.growthBytes / buffered.growthBytes).toFixed(3)}× | ${streamed.wallMs.toFixed(0)} ms | ${buffered.wallMs.toFixed(0)} ms |`,
      );
    }
    const max = Math.max(...worst);
    console.log(`streamed growth at most ${mib(max)} MiB (goal < 32 MiB for 50 MiB)`);
    if (process.argv.includes('--assert') && max >= 32 * 2 ** 20) process.exitCode = 1;
  } finally {
    await s3.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function runChild(mode: Mode, config: unknown): Promise<Measured> {
  const script = fileURLToPath(import.meta.url);
  const proc = spawn(
    process.execPath,
    [...process.execArgv, '--expose-gc', script, '--child', mode, JSON.stringify(config)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise((resolve) => proc.once('exit', resolve));
  if (code !== 0) throw new Error(`publish-memory child (${mode}) exited ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as Measured;
}

async function child(
  mode: Mode,
  config: {
    dir: string;
    endpoint: string;
    bucket: string;
    credentials: { accessKeyId: string; secretAccessKey: string };
  },
): Promise<void> {
  const sandbox = await createLocalSandboxAdapter().create();
  const s3Options = {
    endpoint: config.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: config.credentials,
  };
  const publisher = createS3Publisher({ bucket: config.bucket, prefix: 'bench', ...s3Options });
  const tool = createPublishTool(sandbox.client, { root: config.dir, publisher });
  const run = async (name: string): Promise<void> => {
    if (mode === 'streamed') await tool.call({ path: name });
    else {
      const bytes = await sandbox.client.readFile(join(config.dir, name));
      const request = { filename: name, contentType: 'application/octet-stream', expiresInSeconds: 60 };
      await publisher.share({ ...request, bytes, size: bytes.length });
    }
  };
  await run('warm.bin');
  globalThis.gc?.();
  await writeFile('/proc/self/clear_refs', '5');
  const before = await status('VmRSS');
  const started = performance.now();
  await run('big.bin');
  const wallMs = performance.now() - started;
  const peak = await status('VmHWM');
  await sandbox.destroy();
  process.stdout.write(`${JSON.stringify({ mode, growthBytes: peak - before, wallMs })}\n`);
}
