/**
 * docker-exec: median latency of `exec('true')` through the Docker adapter, with the long-lived
 * channel and in plain-exec mode, against `docker exec <container> sh -c true` (the docker CLI
 * talking to the same engine), all measured in the same run and interleaved round by round so
 * machine load hits each the same.
 * Goals: channel ≤ 0.1× the CLI, plain ≤ 0.75× the CLI.
 *
 * Run: DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx bench/docker-exec.ts [rounds=30] [image]
 */
import { execFileSync } from 'node:child_process';
import type { SandboxHandle } from '../packages/core/src/index.js';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { median, time } from './bench-stats.js';

const rounds = Number(process.argv[2] ?? 30);
const image = process.argv[3] ?? 'localhost/sandkit-sandbox:bookworm';

const channel = await createDockerSandboxAdapter({ image }).create();
const plain = await createDockerSandboxAdapter({ image, channel: false }).create();
const containerOf = async (handle: SandboxHandle) =>
  (await handle.client.exec('cat /etc/hostname')).stdout.trim();
const cliTarget = await containerOf(plain);
const check = async (handle: SandboxHandle) => {
  const result = await handle.client.exec('true');
  if (result.exitCode !== 0) throw new Error(`exec('true') gave ${JSON.stringify(result)}`);
};
try {
  for (let warm = 0; warm < 3; warm++) {
    await check(channel);
    await check(plain);
    execFileSync('docker', ['exec', cliTarget, 'sh', '-c', 'true']);
  }
  const samples = { channel: [] as number[], plain: [] as number[], cli: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    samples.channel.push(await time(() => check(channel)));
    samples.plain.push(await time(() => check(plain)));
    samples.cli.push(await time(() => execFileSync('docker', ['exec', cliTarget, 'sh', '-c', 'true'])));
  }
  const cli = median(samples.cli);
  const row = (name: string, values: number[], goal: string) =>
    `| ${name} | ${median(values).toFixed(1)} | ${(median(values) / cli).toFixed(3)}× | ${goal} |`;
  console.log(
    `docker-exec: median of ${rounds} rounds, image ${image}, DOCKER_HOST=${process.env.DOCKER_HOST ?? '(default)'}`,
  );
  console.log('| path | median ms | vs CLI | goal |\n|---|---|---|---|');
  console.log(row('adapter, channel', samples.channel, '≤ 0.1×'));
  console.log(row('adapter, plain exec', samples.plain, '≤ 0.75×'));
  console.log(row('`docker exec c sh -c true` (CLI)', samples.cli, 'baseline'));
} finally {
  await Promise.all([channel.destroy(), plain.destroy()]);
}
