/**
 * docker-files: writeFile of 1 MiB and 50 MiB through the Docker adapter (the archive PUT under a
 * temp name, renamed into place by a script sent over the channel while the bytes upload,
 * src/docker/archive-write.ts) against `docker cp host-file c:path` (the CLI talking to the same
 * engine), in the same run, interleaved round by round. Both replace the file they wrote in the
 * round before. Reads: bench/docker-files-read.ts.
 * Goals: 50 MiB ≤ 1.0× `docker cp`, 1 MiB ≤ 0.5×.
 *
 * The adapter frees a replaced file over 4 MiB after the write has returned (a background process
 * in the container holds it open through the rename); `docker cp` frees it inside its request.
 * So that this work never runs beside the `docker cp` being timed, each round waits, untimed, until
 * it has ended; the "until freed" column is the time from the write's start to then (an upper
 * bound: it includes the exec that checks).
 *
 * Run: DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx bench/docker-files.ts [rounds=5] [image]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unlinkHoldSeconds } from '../packages/sandbox-adapters/src/docker/finish-write-script.js';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { median, time } from './bench-stats.js';

const rounds = Number(process.argv[2] ?? 5);
const image = process.argv[3] ?? 'localhost/sandkit-sandbox:bookworm';

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const startedAt = `${new Date().toISOString().slice(0, 16)}Z, load ${loadavg()}`;
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
    const samples = { write: [] as number[], freed: [] as number[], cpIn: [] as number[] };
    for (let round = 0; round < rounds + 1; round++) {
      const started = performance.now();
      const write = await time(() => handle.client.writeFile(`bench/${size}.bin`, data));
      await handle.client.exec(
        `while pgrep -x -f 'sleep ${unlinkHoldSeconds}' >/dev/null; do sleep 0.005; done`,
      );
      const freed = performance.now() - started;
      const cpIn = await time(() =>
        execFileSync('docker', ['cp', source, `${container}:/workspace/bench/cp-${size}.bin`]),
      );
      if (round === 0) continue; // warm-up
      samples.write.push(write);
      samples.freed.push(freed);
      samples.cpIn.push(cpIn);
    }
    const back = await handle.client.readFile(`bench/${size}.bin`);
    if (!Buffer.from(back).equals(data)) throw new Error(`the ${label} file read back differs`);
    const ratio = median(samples.write) / median(samples.cpIn);
    const goal = size > 2 ** 20 ? 1 : 0.5;
    rows.push(
      `| write ${label} | ${median(samples.write).toFixed(1)} | ${median(samples.freed).toFixed(1)} | ${median(samples.cpIn).toFixed(1)} | ${ratio.toFixed(3)}× | ≤ ${goal}× ${ratio <= goal ? '✓' : '✗'} |`,
    );
  }
  console.log(
    `docker-files: median of ${rounds} rounds (after 1 warm-up), image ${image}, DOCKER_HOST=${process.env.DOCKER_HOST ?? '(default)'}; started ${startedAt}, ended load ${loadavg()}`,
  );
  console.log(
    '| operation | adapter ms | adapter until freed ms (≤) | `docker cp` ms | ratio | goal |\n|---|---|---|---|---|---|',
  );
  for (const row of rows) console.log(row);
} finally {
  await handle.destroy();
  rmSync(local, { recursive: true, force: true });
}
