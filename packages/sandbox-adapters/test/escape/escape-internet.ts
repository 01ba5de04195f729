/**
 * The escape suite's "internet": an HTTP and an HTTPS server on 127.0.0.2 (the allowed host) and
 * on 127.0.0.3 (a host not on the allowlist), a Unix-socket service, and a host directory with a
 * secret, all on this machine. Loopback only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A host reachable at `http://<host>:<httpPort>` and `https://<host>:<httpsPort>`. */
export interface TestHost {
  readonly host: string;
  readonly httpPort: number;
  readonly httpsPort: number;
  /** Requests it answered. */
  readonly hits: string[];
}

export interface EscapeInternet {
  readonly allowed: TestHost;
  readonly blocked: TestHost;
  /** A host directory outside /tmp the sandbox must not read (hidden) or write. */
  readonly secretDir: string;
  readonly secret: string;
  /** A visible host directory holding `service.sock`, a Unix-socket service. */
  readonly socketDir: string;
  /** Connections the Unix-socket service accepted. */
  readonly socketHits: () => number;
  close(): Promise<void>;
}

async function listen(server: Server | NetServer, host: string): Promise<number> {
  await new Promise<void>((done) => server.listen(0, host, done));
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

export async function startEscapeInternet(): Promise<EscapeInternet> {
  const secretDir = await mkdtemp(join(homedir(), '.sandkit-escape-secret-'));
  const socketDir = await mkdtemp(join(homedir(), '.sandkit-escape-socket-'));
  const secret = `secret-${Math.random().toString(36).slice(2)}`;
  await writeFile(join(secretDir, 'secret.txt'), secret);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=sandkit-escape',
      '-days',
      '1',
      '-keyout',
      join(secretDir, 'key.pem'),
      '-out',
      join(secretDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const tls = {
    key: await readFile(join(secretDir, 'key.pem')),
    cert: await readFile(join(secretDir, 'cert.pem')),
  };
  const servers: (Server | NetServer)[] = [];
  const startHost = async (host: string): Promise<TestHost> => {
    const hits: string[] = [];
    const handler = (request: { url?: string }, response: { end(body: string): void }): void => {
      hits.push(request.url ?? '');
      response.end(`reached ${host}${request.url}`);
    };
    const http = createHttpServer(handler);
    const https = createHttpsServer(tls, handler);
    servers.push(http, https);
    return { host, httpPort: await listen(http, host), httpsPort: await listen(https, host), hits };
  };
  let socketHits = 0;
  const unix = createNetServer((socket) => {
    socketHits++;
    socket.end('host service\n');
  });
  servers.push(unix);
  await new Promise<void>((done) => unix.listen(join(socketDir, 'service.sock'), done));
  return {
    allowed: await startHost('127.0.0.2'),
    blocked: await startHost('127.0.0.3'),
    secretDir,
    secret,
    socketDir,
    socketHits: () => socketHits,
    async close() {
      for (const server of servers) server.close();
      await rm(secretDir, { recursive: true, force: true });
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}
