/**
 * egress-proxy: what the allowlisting proxy costs on a 1 MiB response from a local HTTP server.
 *
 * From this host: a direct GET against the same GET through the egress proxy (plain HTTP
 * forwarding) and through a CONNECT tunnel (how HTTPS goes), a new connection each, interleaved.
 * From inside a sandbox: `curl` 20 times in one command, in a bubblewrap sandbox with an allowlist
 * (through the exec server's relay and the proxy) against a plain local sandbox (direct).
 * Goal: ≤ 1.2× direct for 1 MiB.
 *
 * Run: pnpm tsx bench/egress-proxy.ts [requests=200]
 */
import { createServer, type RequestOptions, request } from 'node:http';
import { connect } from 'node:net';
import { startEgressProxy } from '../packages/sandbox-adapters/src/network/egress-proxy.js';
import { normalizeNetworkPolicy } from '../packages/sandbox-adapters/src/network/network-policy.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import { median, time } from './bench-stats.js';

const requests = Number(process.argv[2] ?? 200);
const body = Buffer.alloc(1024 * 1024, 'x');
const server = createServer((_request, response) => response.end(body));
await new Promise<void>((done) => server.listen(0, '127.0.0.2', done));
const port = (server.address() as { port: number }).port;
const policy = normalizeNetworkPolicy({ allow: ['127.0.0.2'] });
if (policy.kind !== 'allow') throw new TypeError('the policy must be an allowlist');
const proxy = await startEgressProxy(policy, { host: '127.0.0.1' });

function get(options: RequestOptions): Promise<void> {
  return new Promise((done, fail) => {
    const req = request({ agent: false, ...options }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => (bytes === body.length ? done() : fail(new Error(`got ${bytes} bytes`))));
    });
    req.on('error', fail);
    req.end();
  });
}
const direct = (): Promise<void> => get({ host: '127.0.0.2', port, path: '/' });
const forwarded = (): Promise<void> =>
  get({
    host: '127.0.0.1',
    port: proxy.port,
    path: `http://127.0.0.2:${port}/`,
    headers: { host: `127.0.0.2:${port}` },
  });
function tunnelled(): Promise<void> {
  return new Promise((done, fail) => {
    const socket = connect(proxy.port, '127.0.0.1', () => {
      socket.write(`CONNECT 127.0.0.2:${port} HTTP/1.1\r\nHost: 127.0.0.2:${port}\r\n\r\n`);
    });
    let phase: 'connect' | 'body' = 'connect';
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => {
      if (phase === 'connect') {
        if (!chunk.toString('latin1').startsWith('HTTP/1.1 200')) return fail(new Error(chunk.toString()));
        phase = 'body';
        socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.2:${port}\r\nConnection: close\r\n\r\n`);
        return;
      }
      bytes += chunk.length;
    });
    socket.on('end', () => (bytes > body.length ? done() : fail(new Error(`got ${bytes} bytes`))));
    socket.on('error', fail);
  });
}
for (let i = 0; i < 20; i++) {
  await direct();
  await forwarded();
  await tunnelled();
}
const samples = { direct: [] as number[], forwarded: [] as number[], tunnelled: [] as number[] };
for (let i = 0; i < requests; i++) {
  samples.direct.push(await time(direct));
  samples.forwarded.push(await time(forwarded));
  samples.tunnelled.push(await time(tunnelled));
}
const base = median(samples.direct);
const ms = (value: number): string => `${value.toFixed(2)} ms`;
console.log(`1 MiB GET from this host, ${requests} each, interleaved:`);
console.log(`  direct              ${ms(base)}  1.00x`);
console.log(
  `  proxy (forwarding)  ${ms(median(samples.forwarded))}  ${(median(samples.forwarded) / base).toFixed(2)}x  (goal <= 1.2x)`,
);
console.log(
  `  proxy (CONNECT)     ${ms(median(samples.tunnelled))}  ${(median(samples.tunnelled) / base).toFixed(2)}x  (goal <= 1.2x)`,
);

const plain = await createLocalSandboxAdapter().create();
const isolated = await createLocalSandboxAdapter({
  isolation: 'bubblewrap',
  network: { allow: ['127.0.0.2'] },
}).create();
const curlLoop = `for i in $(seq 20); do curl -sS -o /dev/null http://127.0.0.2:${port}/ || exit 1; done`;
const inSandbox = { plain: [] as number[], isolated: [] as number[] };
for (let round = 0; round < 6; round++) {
  inSandbox.plain.push(await time(async () => assertOk(await plain.client.exec(curlLoop))));
  inSandbox.isolated.push(await time(async () => assertOk(await isolated.client.exec(curlLoop))));
}
function assertOk(result: { exitCode: number | null; stderr: string }): void {
  if (result.exitCode !== 0) throw new Error(`curl failed: ${result.stderr}`);
}
const sandboxBase = median(inSandbox.plain.slice(1)) / 20;
const sandboxProxied = median(inSandbox.isolated.slice(1)) / 20;
console.log('1 MiB curl from inside a sandbox, per request (20 per command, 5 rounds after a warm-up):');
console.log(`  plain local, direct           ${ms(sandboxBase)}  1.00x`);
console.log(
  `  bubblewrap, allowlist, proxy  ${ms(sandboxProxied)}  ${(sandboxProxied / sandboxBase).toFixed(2)}x  (goal <= 1.2x)`,
);
await plain.destroy();
await isolated.destroy();
await proxy.close();
server.close();
