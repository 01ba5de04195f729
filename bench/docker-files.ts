/**
 * docker-files: writeFile and readFile of 1 MiB and 50 MiB through the Docker adapter (channel
 * mode: putArchive + one small script for writes, `cat` over the channel for reads) against
 * `docker cp` (the CLI talking to the same engine), in the same run, interleaved round by round.
 * Goal: writes ≤ 0.5× `docker cp`.
 *
 * Run: DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx bench/docker-files.ts [rounds=5] [image]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';

const rounds = Number(process.argv[2] ?? 5);
const image = process.argv[3] ?? 'localhost/sandkit-sandbox:bookworm';
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const time = async (task: () => unknown): Promise<number> => {
  const started = performance.now();
  await task();
  return performance.now() - started;
};

const handle = await createDockerSandboxAdapter({ image }).create();
const container = (await handle.client.exec('cat /etc/hostname')).stdout.trim();
const local = mkdtempSync(join(tmpdir(), 'sandkit-bench-files-'));
const rows: string[] = [];
try {
  for (const [label, size] of [
    ['1 MiB', 1024 * 1024],
    ['50 MiB', 50 * 1024 * 1024],
  ] as const) {
    const data = new Uint8Array(randomBytes(size));
    const source = join(local, `data-${size}.bin`);
    writeFileSync(source, data);
    const samples = {
      write: [] as number[],
      cpIn: [] as number[],
      read: [] as number[],
      cpOut: [] as number[],
    };
    for (let round = 0; round < rounds + 1; round++) {
      const write = await time(() => handle.client.writeFile(`bench/${size}.bin`, data));
      const cpIn = await time(() =>
        execFileSync('docker', ['cp', source, `${container}:/workspace/bench/cp-${size}.bin`]),
      );
      let back: Uint8Array = new Uint8Array();
      const read = await time(async () => {
        back = await handle.client.readFile(`bench/${size}.bin`);
      });
      if (back.length !== size) throw new Error(`read ${back.length} bytes, expected ${size}`);
      const cpOut = await time(() =>
        execFileSync('docker', [
          'cp',
          `${container}:/workspace/bench/cp-${size}.bin`,
          join(local, 'out.bin'),
        ]),
      );
      if (round === 0) continue; // warm-up
      samples.write.push(write);
      samples.cpIn.push(cpIn);
      samples.read.push(read);
      samples.cpOut.push(cpOut);
    }
    const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(3);
    rows.push(
      `| write ${label} | ${median(samples.write).toFixed(1)} | ${median(samples.cpIn).toFixed(1)} | ${ratio(samples.write, samples.cpIn)}× | ≤ 0.5× |`,
    );
    rows.push(
      `| read ${label} | ${median(samples.read).toFixed(1)} | ${median(samples.cpOut).toFixed(1)} | ${ratio(samples.read, samples.cpOut)}× | — |`,
    );
  }
  console.log(
    `docker-files: median of ${rounds} rounds (after 1 warm-up), image ${image}, DOCKER_HOST=${process.env.DOCKER_HOST ?? '(default)'}`,
  );
  console.log('| operation | adapter ms | `docker cp` ms | ratio | goal |\n|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await handle.destroy();
  rmSync(local, { recursive: true, force: true });
}
