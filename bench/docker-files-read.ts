/**
 * docker-files-read: readFile of 1 MiB and 50 MiB through the Docker adapter (1 MiB: `cat` over
 * the channel; 50 MiB: the archive endpoint read from its own socket straight into one buffer of
 * the file's size, src/docker/transport/archive-request.ts) against `docker cp c:path host-file` (the
 * CLI talking to the same engine), in the same run, interleaved round by round (which of the two
 * goes first alternates). Writes:
 * bench/docker-files.ts.
 * Goals: 50 MiB ≤ 1.0× `docker cp`, 1 MiB ≤ 0.5×.
 *
 * Run: DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx bench/docker-files-read.ts [rounds=15] [image]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { median, time } from './bench-stats.js';

const rounds = Number(process.argv[2] ?? 15);
const image = process.argv[3] ?? 'localhost/sandkit-sandbox:bookworm';

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
    await handle.client.writeFile(`bench/${size}.bin`, data);
    execFileSync('docker', ['cp', source, `${container}:/workspace/bench/cp-${size}.bin`]);
    const samples = { read: [] as number[], cpOut: [] as number[] };
    const readOnce = async () => {
      let back: Uint8Array = new Uint8Array();
      const took = await time(async () => {
        back = await handle.client.readFile(`bench/${size}.bin`);
      });
      if (!Buffer.from(back).equals(data)) throw new Error(`the ${label} file read back differs`);
      return took;
    };
    const cpOnce = () =>
      time(() =>
        execFileSync('docker', [
          'cp',
          `${container}:/workspace/bench/cp-${size}.bin`,
          join(local, 'out.bin'),
        ]),
      );
    for (let round = 0; round < rounds + 1; round++) {
      // Which path goes first alternates, so a burst of load does not always hit the same one.
      let read: number;
      let cpOut: number;
      if (round % 2 === 0) {
        read = await readOnce();
        cpOut = await cpOnce();
      } else {
        cpOut = await cpOnce();
        read = await readOnce();
      }
      if (round === 0) continue; // warm-up
      samples.read.push(read);
      samples.cpOut.push(cpOut);
    }
    const ratio = median(samples.read) / median(samples.cpOut);
    const goal = size > 2 ** 20 ? 1 : 0.5;
    rows.push(
      `| read ${label} | ${median(samples.read).toFixed(1)} | ${median(samples.cpOut).toFixed(1)} | ${ratio.toFixed(3)}× | ≤ ${goal}× ${ratio <= goal ? '✓' : '✗'} |`,
    );
  }
  console.log(
    `docker-files-read: median of ${rounds} rounds (after 1 warm-up), image ${image}, DOCKER_HOST=${process.env.DOCKER_HOST ?? '(default)'}`,
  );
  console.log('| operation | adapter ms | `docker cp` ms | ratio | goal |\n|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await handle.destroy();
  rmSync(local, { recursive: true, force: true });
}
