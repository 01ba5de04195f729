/**
 * A stand-in for E2B's in-sandbox daemon (envd), for tests without E2B's cloud: the real `e2b`
 * SDK in debug mode, pointed at it with `sandboxUrl`, runs commands and moves files over the real
 * wire protocol, backed by real processes in a host directory.
 *
 * Served (as read from e2b 2.51.0): Connect JSON `process.Process/Start` (server stream),
 * `process.Process/SendSignal`, `filesystem.Filesystem/Stat` and `ListDir` (unary), and plain HTTP
 * `GET /files`, `POST /files` (multipart or octet-stream), `GET /health`.
 *
 * Like envd, a command's stream deadline (`connect-timeout-ms`) ends the stream with
 * `deadline_exceeded` but does NOT kill the process: killing is the client's job (case B22).
 * No isolation: for tests only.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { decodeEnvelopes, encodeEnvelope, endStreamFlag } from './connect-envelope.js';

/** A running stand-in. */
export interface E2BStandIn {
  /** Base URL to pass as the SDK's `sandboxUrl`. */
  readonly url: string;
  /** Host directory that plays the sandbox's filesystem root for relative paths (its "home"). */
  readonly root: string;
  /** Stops the server, kills every process it started and removes `root` (when it made it). */
  close(): Promise<void>;
}

/** Options of {@link startE2BStandIn}. */
export interface E2BStandInOptions {
  /** Directory used as home; @default a new temp directory, removed on close */
  root?: string;
}

/** Starts a stand-in on a free loopback port. */
export async function startE2BStandIn(options: E2BStandInOptions = {}): Promise<E2BStandIn> {
  const ownsRoot = options.root === undefined;
  const root = options.root ?? (await mkdtemp(join(tmpdir(), 'sandkit-e2b-')));
  const processes = new Map<number, ChildProcess>();
  const server = createServer((request, response) => {
    route(request, response, root, processes).catch((error: Error) => {
      if (!response.headersSent) sendJson(response, 500, { code: 'internal', message: error.message });
      else response.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    async close() {
      for (const child of processes.values()) killGroup(child.pid, 'SIGKILL');
      await closeServer(server);
      if (ownsRoot) await rm(root, { recursive: true, force: true });
    },
  };
}

async function route(request: IncomingMessage, response: ServerResponse, root: string, processes: Map<number, ChildProcess>): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://stand-in');
  const body = await readBody(request);
  switch (`${request.method} ${url.pathname}`) {
    case 'GET /health':
      response.writeHead(204).end();
      return;
    case 'GET /files':
      return getFile(response, resolve(root, url.searchParams.get('path') ?? ''));
    case 'POST /files':
      return postFile(request, response, body, root, url.searchParams.get('path'));
    case 'POST /process.Process/Start':
      return startProcess(request, response, decodeEnvelopes(body)[0] as StartRequest, root, processes);
    case 'POST /process.Process/SendSignal':
      return sendSignal(response, JSON.parse(body.toString('utf8') || '{}') as SignalRequest, processes);
    case 'POST /filesystem.Filesystem/Stat':
      return statPath(response, resolve(root, (JSON.parse(body.toString('utf8')) as { path: string }).path));
    case 'POST /filesystem.Filesystem/ListDir':
      return listDir(response, resolve(root, (JSON.parse(body.toString('utf8')) as { path: string }).path));
    default:
      sendJson(response, 404, { code: 'unimplemented', message: `${request.method} ${url.pathname} is not served by the stand-in` });
  }
}

interface StartRequest {
  process: { cmd: string; args?: string[]; envs?: Record<string, string>; cwd?: string };
  stdin?: boolean;
}

interface SignalRequest {
  process: { pid?: number; selector?: { pid?: number; value?: number } };
  signal: string | number;
}

async function startProcess(request: IncomingMessage, response: ServerResponse, message: StartRequest, root: string, processes: Map<number, ChildProcess>): Promise<void> {
  const cwd = resolve(root, message.process.cwd ?? '.');
  response.writeHead(200, { 'content-type': 'application/connect+json' });
  const end = (error?: { code: string; message: string }): void => {
    if (response.writableEnded) return;
    response.end(encodeEnvelope(error ? { error } : {}, endStreamFlag));
  };
  const cwdInfo = await stat(cwd).catch(() => undefined);
  if (!cwdInfo?.isDirectory()) return end({ code: 'invalid_argument', message: `cwd ${cwd} does not exist` });
  const child = spawn(message.process.cmd, message.process.args ?? [], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, ...message.process.envs },
    detached: true,
    stdio: [message.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) return end({ code: 'internal', message: `cannot start ${message.process.cmd}` });
  processes.set(pid, child);
  response.write(encodeEnvelope({ event: { start: { pid } } }));
  const send = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    if (!response.writableEnded) response.write(encodeEnvelope({ event: { data: { [stream]: chunk.toString('base64') } } }));
  };
  child.stdout?.on('data', send('stdout'));
  child.stderr?.on('data', send('stderr'));
  const deadlineMs = Number(request.headers['connect-timeout-ms'] ?? 0);
  const deadline = deadlineMs > 0 ? setTimeout(() => end({ code: 'deadline_exceeded', message: 'context deadline exceeded' }), deadlineMs) : undefined;
  response.once('close', () => clearTimeout(deadline));
  child.once('exit', (code, signal) => {
    processes.delete(pid);
    // Let pipes drain briefly (a background child may hold them open), then report the end.
    const finish = (): void => {
      clearTimeout(deadline);
      if (response.writableEnded) return;
      const status = signal ? `signal: ${signal === 'SIGKILL' ? 'killed' : signal.toLowerCase()}` : `exit status ${code}`;
      response.write(encodeEnvelope({ event: { end: { exitCode: code ?? -1, exited: signal === null, status } } }));
      end();
    };
    const timer = setTimeout(finish, 200);
    Promise.all([closed(child.stdout), closed(child.stderr)]).then(() => {
      clearTimeout(timer);
      finish();
    });
  });
}

function closed(stream: NodeJS.ReadableStream | null): Promise<void> {
  return stream === null ? Promise.resolve() : new Promise((done) => stream.once('close', () => done()));
}

function sendSignal(response: ServerResponse, message: SignalRequest, processes: Map<number, ChildProcess>): void {
  const pid = message.process.pid ?? message.process.selector?.pid ?? message.process.selector?.value;
  const child = pid === undefined ? undefined : processes.get(pid);
  if (pid === undefined || child === undefined) {
    sendJson(response, 404, { code: 'not_found', message: `process ${pid} not found` });
    return;
  }
  const signal = message.signal === 9 || message.signal === 'SIGNAL_SIGKILL' ? 'SIGKILL' : 'SIGTERM';
  killGroup(pid, signal);
  sendJson(response, 200, {});
}

async function getFile(response: ServerResponse, path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return sendJson(response, 404, { code: 404, message: `path '${path}' does not exist` });
  if (info.isDirectory()) return sendJson(response, 400, { code: 400, message: `path '${path}' is a directory` });
  const data = await readFile(path);
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length }).end(data);
}

async function postFile(request: IncomingMessage, response: ServerResponse, body: Buffer, root: string, pathParam: string | null): Promise<void> {
  const type = request.headers['content-type'] ?? '';
  const files: { path: string; data: Buffer }[] = [];
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(body, { headers: { 'content-type': type } }).formData();
    for (const entry of form.getAll('file')) {
      if (typeof entry === 'string') continue;
      files.push({ path: pathParam ?? entry.name, data: Buffer.from(await entry.arrayBuffer()) });
    }
  } else {
    files.push({ path: pathParam ?? '', data: body });
  }
  const written = [];
  for (const file of files) {
    const full = resolve(root, file.path);
    const info = await stat(full).catch(() => undefined);
    if (info?.isDirectory()) return sendJson(response, 400, { code: 400, message: `path '${full}' is a directory` });
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, file.data);
    written.push({ name: full.split('/').pop(), type: 'file', path: full });
  }
  sendJson(response, 200, written);
}

async function statPath(response: ServerResponse, path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return sendJson(response, 404, { code: 'not_found', message: `path '${path}' does not exist` });
  sendJson(response, 200, { entry: entryOf(path, info) });
}

async function listDir(response: ServerResponse, path: string): Promise<void> {
  const names = await readdir(path).catch(() => undefined);
  if (!names) return sendJson(response, 404, { code: 'not_found', message: `directory '${path}' does not exist` });
  const entries = [];
  for (const name of names.sort()) {
    const info = await stat(join(path, name)).catch(() => undefined);
    if (info) entries.push(entryOf(join(path, name), info));
  }
  sendJson(response, 200, { entries });
}

function entryOf(path: string, info: import('node:fs').Stats) {
  return {
    name: path.split('/').pop(),
    type: info.isDirectory() ? 'FILE_TYPE_DIRECTORY' : 'FILE_TYPE_FILE',
    path,
    size: String(info.size),
    mode: info.mode & 0o7777,
    modifiedTime: info.mtime.toISOString(),
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // ESRCH: the group is already gone
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((done) => server.close(() => done()));
}
