/**
 * docker-exec: median latency of `exec('true')` through the Docker adapter, with the long-lived
 * channel and in plain-exec mode, against `docker exec <container> sh -c true` (the docker CLI
 * talking to the same engine), all measured in the same run and interleaved round by round so
 * machine load hits each the same. A fourth row is the floor of plain mode: one bare engine exec
 * of `sh -c true` (create, start, stream to its end, inspect) with no wrapper around it.
 * Goals: channel ≤ 0.1× the CLI, plain ≤ 0.75× the CLI.
 *
 * Run: DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx bench/docker-exec.ts [rounds=30] [image]
 */
import { execFileSync } from 'node:child_process';
import type { SandboxHandle } from '../packages/core/src/index.js';
import { connectDocker } from '../packages/sandbox-adapters/src/docker/transport/docker-client.js';
import { dockerFromEnvironment } from '../packages/sandbox-adapters/src/docker/transport/docker-connection.js';
import { runEngineCommand } from '../packages/sandbox-adapters/src/docker/transport/engine-exec.js';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { median, time } from './bench-stats.js';

const rounds = Number(process.argv[2] ?? 30);
const image = process.argv[3] ?? 'localhost/sandkit-sandbox:bookworm';

const channel = await createDockerSandboxAdapter({ image }).create();
const plain = await createDockerSandboxAdapter({ image, channel: false }).create();
const containerOf = async (handle: SandboxHandle) =>
  (await handle.client.exec('cat /etc/hostname')).stdout.trim();
const cliTarget = await containerOf(plain);
const docker = await connectDocker(dockerFromEnvironment(process.env.DOCKER_HOST));
const bare = async () => {
  const result = await runEngineCommand(docker, docker.getContainer(cliTarget), ['sh', '-c', 'true']);
  if (result.exitCode !== 0) throw new Error(`bare exec gave ${JSON.stringify(result)}`);
};
const check = async (handle: SandboxHandle) => {
  const result = await handle.client.exec('true');
  if (result.exitCode !== 0) throw new Error(`exec('true') gave ${JSON.stringify(result)}`);
};
try {
  for (let warm = 0; warm < 3; warm++) {
    await check(channel);
    await check(plain);
    await bare();
    execFileSync('docker', ['exec', cliTarget, 'sh', '-c', 'true']);
  }
  const samples = {
    channel: [] as number[],
    plain: [] as number[],
    bare: [] as number[],
    cli: [] as number[],
  };
  const paths: [number[], () => unknown][] = [
    [samples.channel, () => check(channel)],
    [samples.plain, () => check(plain)],
    [samples.bare, bare],
    [samples.cli, () => execFileSync('docker', ['exec', cliTarget, 'sh', '-c', 'true'])],
  ];
  for (let round = 0; round < rounds; round++) {
    // The order rotates each round so that a burst of load does not always hit the same path.
    for (let index = 0; index < paths.length; index++) {
      const [values, task] = paths[(index + round) % paths.length] as [number[], () => unknown];
      values.push(await time(task));
    }
  }
  const cli = median(samples.cli);
  const row = (name: string, values: number[], goal: string) =>
    `| ${name} | ${median(values).toFixed(1)} | ${(median(values) / cli).toFixed(3)}× | ${goal} |`;
  console.log(
    `docker-exec: median of ${rounds} rounds (order rotated each round), image ${image}, DOCKER_HOST=${process.env.DOCKER_HOST ?? '(default)'}`,
  );
  console.log('| path | median ms | vs CLI | goal |\n|---|---|---|---|');
  console.log(row('adapter, channel', samples.channel, '≤ 0.1×'));
  console.log(row('adapter, plain exec', samples.plain, '≤ 0.75×'));
  console.log(row('bare engine exec `sh -c true` (plain mode floor)', samples.bare, '—'));
  console.log(row('`docker exec c sh -c true` (CLI)', samples.cli, 'baseline'));
} finally {
  await Promise.all([channel.destroy(), plain.destroy()]);
}
