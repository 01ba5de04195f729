/**
 * docker-create (pool-free create): `adapter.create()` → first `exec('true')` → `destroy()`
 * through the Docker adapter, against `docker run --rm <image> true` (the CLI, same engine), in
 * the same run, interleaved round by round. Both modes of the adapter are measured.
 *
 * Run: DOCKER_HOST=unix:///run/sandkit-podman.sock pnpm tsx bench/docker-create.ts [rounds=5] [image]
 */
import { execFileSync } from 'node:child_process';
import { createDockerSandboxAdapter } from '../packages/sandbox-adapters/src/docker/index.js';
import { median, time } from './bench-stats.js';

const rounds = Number(process.argv[2] ?? 5);
const image = process.argv[3] ?? 'localhost/sandkit-sandbox:bookworm';

const adapters = {
  channel: createDockerSandboxAdapter({ image }),
  plain: createDockerSandboxAdapter({ image, channel: false }),
};
const cycle = async (adapter: (typeof adapters)['channel']) => {
  const handle = await adapter.create();
  try {
    const result = await handle.client.exec('true');
    if (result.exitCode !== 0) throw new Error(`exec('true') gave ${JSON.stringify(result)}`);
  } finally {
    await handle.destroy();
  }
};
await cycle(adapters.channel); // warm-up (and the one-time leftover sweep)
await cycle(adapters.plain);
execFileSync('docker', ['run', '--rm', image, 'true']);
const samples = { channel: [] as number[], plain: [] as number[], cli: [] as number[] };
for (let round = 0; round < rounds; round++) {
  samples.channel.push(await time(() => cycle(adapters.channel)));
  samples.plain.push(await time(() => cycle(adapters.plain)));
  samples.cli.push(
    await time(() => execFileSync('docker', ['run', '--rm', '--network', 'none', image, 'true'])),
  );
}
const cli = median(samples.cli);
console.log(
  `docker-create: median of ${rounds} rounds, image ${image}, DOCKER_HOST=${process.env.DOCKER_HOST ?? '(default)'}`,
);
console.log('| path | median ms | vs `docker run --rm` |\n|---|---|---|');
console.log(
  `| create → exec('true') → destroy, channel | ${median(samples.channel).toFixed(1)} | ${(median(samples.channel) / cli).toFixed(3)}× |`,
);
console.log(
  `| create → exec('true') → destroy, plain | ${median(samples.plain).toFixed(1)} | ${(median(samples.plain) / cli).toFixed(3)}× |`,
);
console.log(`| \`docker run --rm --network none <image> true\` (CLI) | ${cli.toFixed(1)} | 1.000× |`);
