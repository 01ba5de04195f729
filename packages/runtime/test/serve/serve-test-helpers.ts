/**
 * Shared by the `sandkit serve` tests: the real CLI started as a process on this machine or inside
 * a Podman container (through the Docker API at DOCKER_HOST), a TCP proxy whose connections a test
 * can cut, and the conformance fault hooks over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ConformanceFaults } from '@sandkit/sandbox-adapters/conformance';
import Docker from 'dockerode';
import { execa, type ResultPromise } from 'execa';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const cliSource = `${repoRoot}packages/runtime/src/cli/main.ts`;
const tsxCli = `${repoRoot}node_modules/tsx/dist/cli.mjs`;

/** A running `sandkit serve`. */
export interface RunningServe {
  /** Its base URL. */
  readonly url: string;
  /** Its bearer token. */
  readonly token: string;
  /** Stops it (SIGTERM: it destroys its sandboxes) and waits. */
  stop(): Promise<void>;
}

/** A fresh random token. */
export function newToken(): string {
  return randomBytes(24).toString('hex');
}

/** `sandkit serve --port 0` from source on this machine, with the token in SANDKIT_SERVE_TOKEN. */
export async function startServeProcess(token = newToken()): Promise<RunningServe> {
  const child = execa(
    process.execPath,
    [tsxCli, '--conditions=@sandkit/source', cliSource, 'serve', '--port', '0'],
    {
      env: { SANDKIT_SERVE_TOKEN: token },
      reject: false,
      buffer: false,
    },
  );
  const url = await listeningUrl(child);
  return {
    url,
    token,
    async stop() {
      child.kill('SIGTERM');
      await child;
    },
  };
}

async function listeningUrl(child: ResultPromise): Promise<string> {
  let seen = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /listening on (\S+)/.exec(seen);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
    });
    void child.then(() => reject(new Error(`sandkit serve exited before listening:\n${seen}`)));
  });
}

/** Image of the Podman test (built by scripts/setup.sh --docker). */
export const serveTestImage = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';

/**
 * `sandkit serve` inside a container of {@link serveTestImage}: this machine's node binary and this
 * checkout are mounted read-only (the image's own node is 18; sandkit needs 20), the container
 * shares the host's network, and the server listens on a free loopback port.
 */
export async function startServeContainer(token = newToken()): Promise<RunningServe> {
  const docker = new Docker();
  const port = await freePort();
  const container = await docker.createContainer({
    Image: serveTestImage,
    Cmd: [
      '/usr/local/bin/sandkit-node',
      tsxCli,
      '--conditions=@sandkit/source',
      cliSource,
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--root',
      '/tmp/sandboxes',
    ],
    Env: [`SANDKIT_SERVE_TOKEN=${token}`],
    Labels: { 'sandkit.test': 'serve-podman' },
    HostConfig: {
      NetworkMode: 'host',
      Binds: [`${process.execPath}:/usr/local/bin/sandkit-node:ro`, `${repoRoot}:${repoRoot}:ro`],
    },
  });
  await container.start();
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const healthy = await fetch(`${url}health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    const state = await container.inspect();
    if (!state.State.Running || Date.now() > deadline) {
      const logs = await container.logs({ stdout: true, stderr: true });
      await container.remove({ force: true });
      throw new Error(`sandkit serve did not start in the container:\n${logs.toString()}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  return {
    url,
    token,
    async stop() {
      await container.stop({ t: 10 }).catch(() => undefined);
      await container.remove({ force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP proxy in front of `target` whose open connections {@link CuttingProxy.cut} drops. */
export interface CuttingProxy {
  readonly url: string;
  /** Destroys every open connection through the proxy (a dropped network path). */
  cut(): void;
  close(): Promise<void>;
}

/** Starts a {@link CuttingProxy} on a free loopback port. */
export async function startCuttingProxy(target: string): Promise<CuttingProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${proxyPort}/`,
    cut() {
      for (const socket of open) socket.destroy();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Conformance fault hooks over HTTP: `disappear` deletes the sandbox on the server behind the
 * adapter's back (a direct request, not through the adapter); `endTransport` cuts every connection
 * through the proxy while the command runs.
 */
export function serveFaults(serve: RunningServe, proxy: CuttingProxy): ConformanceFaults {
  return {
    async disappear(handle) {
      const response = await fetch(`${serve.url}v1/sandboxes/${encodeURIComponent(handle.id)}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${serve.token}` },
      });
      if (response.status !== 204) throw new Error(`DELETE answered ${response.status}`);
    },
    async endTransport() {
      proxy.cut();
    },
  };
}
