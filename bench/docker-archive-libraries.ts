/**
 * docker-archive-libraries: the Docker transport's hand-written archive GET against the libraries,
 * on one container, interleaved round by round (which goes first alternates): reading a 1 MiB and
 * a 50 MiB file with src/docker/transport/archive-request.ts's `requestArchive` (HTTP/1.0 on a
 * socket of its own, `onread` straight into the result buffer) against dockerode's
 * `container.getArchive` stream through tar-stream's `extract` into one buffer of the file's size.
 * Prints the median wall time and the median CPU time of this process (user + system) per read,
 * and the library path's ratio to the hand-written one measured in the same run. The bytes read
 * back are compared with the written ones (written with putFile: dockerode + tar-stream).
 *
 * The PUT was measured the same way before the hand-written one was removed (commit 714824a of
 * this bench's history, BENCHMARKS.md): dockerode + tar-stream matched or won, so it is used.
 *
 * Run: DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx bench/docker-archive-libraries.ts [rounds=9] [image]
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { requestArchive } from '../packages/sandbox-adapters/src/docker/transport/archive-request.js';
import { putFile } from '../packages/sandbox-adapters/src/docker/transport/container-files.js';
import { connectDocker } from '../packages/sandbox-adapters/src/docker/transport/docker-client.js';
import { dockerFromEnvironment } from '../packages/sandbox-adapters/src/docker/transport/docker-connection.js';
import { median } from './bench-stats.js';

const rounds = Number(process.argv[2] ?? 9);
const image = process.argv[3] ?? 'localhost/sandkit-sandbox:bookworm';
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`started ${new Date().toISOString().slice(0, 16)}Z, load ${loadavg()}`);

const connection = dockerFromEnvironment(process.env.DOCKER_HOST);
const docker = await connectDocker(connection);
const handle = await createDockerSandboxAdapter({ image, docker: connection }).create();
const containerId = (await handle.client.exec('cat /etc/hostname')).stdout.trim();
const container = docker.getContainer(containerId);
const dir = '/tmp/bench-archive';
await handle.client.exec(`mkdir -p ${dir}`);

/** Wall and CPU ms of one awaited call. */
async function measure(task: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await task();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const reads: Record<string, (path: string, size: number) => Promise<Uint8Array>> = {
  'hand-written (HTTP/1.0 socket, onread into the result)': async (path, size) => {
    const response = await requestArchive(connection, containerId, path, { sizeHint: size });
    if (response.kind !== 'entry' || response.entry.kind !== 'file')
      throw new Error('no file in the archive');
    return response.entry.data;
  },
  'dockerode getArchive + tar-stream extract': async (path) => {
    const stream = (await container.getArchive({ path })) as NodeJS.ReadableStream;
    const extract = tar.extract();
    let result: Buffer | undefined;
    const collect = (async () => {
      for await (const entry of extract) {
        if (result === undefined && entry.header.type === 'file') {
          const data = Buffer.allocUnsafe(entry.header.size ?? 0);
          let filled = 0;
          for await (const chunk of entry as AsyncIterable<Buffer>) {
            chunk.copy(data, filled);
            filled += chunk.length;
          }
          result = data;
        } else entry.resume();
      }
    })();
    await Promise.all([pipeline(stream, extract), collect]);
    if (result === undefined) throw new Error('no file in the archive');
    return result;
  },
};

const rows: string[] = [];
try {
  for (const [label, size] of [
    ['1 MiB', 1024 * 1024],
    ['50 MiB', 50 * 1024 * 1024],
  ] as const) {
    const data = new Uint8Array(randomBytes(size));
    await putFile({ docker, container, connection }, dir, 'read.bin', data, { mode: 0o644, uid: 0, gid: 0 });
    const names = Object.keys(reads);
    const samples = new Map(names.map((name) => [name, { wall: [] as number[], cpu: [] as number[] }]));
    for (let round = 0; round <= rounds; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        let back: Uint8Array = new Uint8Array();
        const taken = await measure(async () => {
          back = await (reads[name] as (typeof reads)[string])(`${dir}/read.bin`, size);
        });
        if (!Buffer.from(back).equals(data)) throw new Error(`${name} read back other bytes`);
        if (round === 0) continue; // warm-up
        samples.get(name)?.wall.push(taken.wall);
        samples.get(name)?.cpu.push(taken.cpu);
      }
    }
    const base = samples.get(names[0] as string) as { wall: number[]; cpu: number[] };
    for (const name of names) {
      const s = samples.get(name) as { wall: number[]; cpu: number[] };
      const wall = median(s.wall);
      const cpu = median(s.cpu);
      rows.push(
        `| GET ${label} | ${name} | ${wall.toFixed(1)} | ${(wall / median(base.wall)).toFixed(2)}× | ${cpu.toFixed(1)} | ${(cpu / median(base.cpu)).toFixed(2)}× |`,
      );
    }
  }
} finally {
  await handle.destroy();
}
console.log(`${rounds} rounds after a warm-up, load at the end ${loadavg()}`);
console.log('| request | path | median wall ms | vs hand-written | median CPU ms | vs hand-written |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
