/**
 * The HTTP adapter's own cost: create, an exec round trip (`true`) and a 1 MiB write through
 * `createHttpSandboxAdapter` → `sandkit serve` (in-process, loopback, auth on) against the same
 * operations on the local adapter that the server itself uses (the baseline, same run, same
 * machine). The ratio is what the protocol and HTTP add; the network between two machines is not
 * modelled.
 *
 * Run: pnpm tsx bench/http-adapter.ts [rounds=30]
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createHttpSandboxAdapter } from '../packages/sandbox-adapters/src/http/index.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import { startSandboxServer } from '../packages/sandbox-adapters/src/serve/index.js';
import { median, time } from './bench-stats.js';

const rounds = Number(process.argv[2] ?? 30);
const token = randomBytes(16).toString('hex');
const server = await startSandboxServer({ port: 0, token });
const adapters = {
  local: createLocalSandboxAdapter(),
  http: createHttpSandboxAdapter({ baseURL: server.url, auth: { token } }),
};
const mib = randomBytes(2 ** 20);
const samples: Record<string, Record<string, number[]>> = { local: {}, http: {} };
const record = (kind: string, op: string, ms: number): void => {
  (samples[kind] as Record<string, number[]>)[op] ??= [];
  (samples[kind] as Record<string, number[]>)[op]?.push(ms);
};
for (let round = 0; round < rounds; round++) {
  // alternate which goes first, so neither always runs on a warmer machine
  for (const kind of round % 2 === 0 ? (['local', 'http'] as const) : (['http', 'local'] as const)) {
    const adapter = adapters[kind];
    let handle: Awaited<ReturnType<typeof adapter.create>> | undefined;
    record(kind, 'create', await time(async () => (handle = await adapter.create())));
    const sandbox = handle as NonNullable<typeof handle>;
    record(kind, 'exec true', await time(() => sandbox.client.exec('true')));
    record(kind, 'write 1 MiB', await time(() => sandbox.client.writeFile('one.bin', mib)));
    await sandbox.destroy();
  }
}
await server.close();
console.log(`http adapter vs local adapter, ${rounds} rounds (median ms, ratio http/local)`);
for (const op of ['create', 'exec true', 'write 1 MiB']) {
  const local = median(samples.local?.[op] ?? []);
  const http = median(samples.http?.[op] ?? []);
  console.log(
    `${op.padEnd(12)} local ${local.toFixed(2).padStart(8)}  http ${http.toFixed(2).padStart(8)}  ${(http / local).toFixed(2)}×`,
  );
}
