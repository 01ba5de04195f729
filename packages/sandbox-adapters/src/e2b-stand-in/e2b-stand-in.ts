/**
 * A stand-in for one E2B sandbox as the SDK sees it: envd (E2B's in-sandbox daemon) behind E2B's
 * proxy. The real `e2b` SDK, in debug mode pointed at it with `sandboxUrl` (or outside debug
 * mode through `startE2BApiFake` of e2b-api-fake.ts), runs commands and moves files over the real
 * wire protocol, backed by real processes on this host.
 *
 * It behaves as envd 0.6.13 does, read from e2b-dev/infra at commit
 * 54693ff353d26c5fe1951db5467e751f3e2f984e (`packages/envd`); each behaviour and its source file
 * is listed in the module docs of `envd-process.ts` (commands, signals, deadline, environment)
 * and `envd-files.ts` (uploads as root then chown, downloads, Stat, ListDir, Remove). In short:
 * commands run as the default user `user` (HOME `/home/user`, USER, LOGNAME) when the stand-in
 * runs as root, the `end` event waits for pipe EOF, the `Connect-Timeout-Ms` deadline SIGKILLs
 * the direct child, SendSignal signals one pid with SIGKILL or SIGTERM only. A sandbox that is
 * gone (killed, expired) or paused answers every request as E2B's proxy does: HTTP 502
 * `{"message":"The sandbox was not found","code":502}` (`sandbox-not-found.ts`).
 *
 * No isolation (a template's `directories` are private copies, everything else is the host's):
 * for tests only. Not served: PTYs, watchers, stdin RPCs, `/envs`, `/init`.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEnvelopes } from './connect-envelope.js';
import { downloadFile, listDirectory, removeEntry, statEntry, uploadFiles } from './envd-files.js';
import {
  type ProcessServiceContext,
  type RunningProcess,
  resolveUserPath,
  sendConnectError,
  sendSignal,
  startProcess,
} from './envd-process.js';
import { createSandboxFileSystem, type TemplateDirectories } from './sandbox-file-system.js';
import { sendSandboxNotFound } from './sandbox-not-found.js';
import { signalSandboxProcesses } from './sandbox-processes.js';
import { resolveSandboxUser } from './sandbox-user.js';

/** A running stand-in sandbox. */
export interface E2BStandIn {
  /** Base URL to pass as the SDK's `sandboxUrl` (debug mode). */
  readonly url: string;
  /** Sandbox id (also `E2B_SANDBOX_ID` in every command's environment). */
  readonly sandboxId: string;
  /** Host directory made for this sandbox and owned by its user: use it as the adapter's workdir. */
  readonly root: string;
  /** `running`, `paused` (processes stopped) or `gone` (processes killed). */
  readonly state: 'running' | 'paused' | 'gone';
  /** Serves one envd request (used by the API fake, which plays E2B's proxy). */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** Ends the sandbox as an expiry or a kill does: its processes are SIGKILLed, requests get 502. */
  disappear(): Promise<void>;
  /** Stops every process of the sandbox (SIGSTOP); requests get 502 until {@link resume}. */
  pause(): Promise<void>;
  /** Continues the processes (SIGCONT) and serves requests again. */
  resume(): Promise<void>;
  /**
   * Drops every open command stream mid-flight (the connection is cut, as by a load balancer): the
   * processes keep running, as they do under envd when the client goes away.
   */
  dropStreams(): void;
  /** Kills every process of the sandbox, stops the server and removes `root`. */
  close(): Promise<void>;
}

/** Options of {@link startE2BStandIn}. */
export interface E2BStandInOptions {
  /** Sandbox id. @default `sbx_` and 16 random hex digits */
  sandboxId?: string;
  /** The template's default user, used when the stand-in runs as root. @default 'user' */
  user?: string;
  /** Listen on a port of its own; the API fake passes `false` and routes requests itself. @default true */
  listen?: boolean;
  /**
   * The sandbox's own directories, as its template defines them (see `sandbox-file-system.ts`):
   * private copies bind-mounted over their paths for commands and mapped for file calls. Needs root.
   * @default {} (every path is the host's)
   */
  directories?: TemplateDirectories;
}

/**
 * Starts a stand-in sandbox (on a free loopback port unless `listen: false`).
 * @throws SandkitError `invalid_option` when run as root and the default user does not exist, or
 *   for `directories` that cannot be made (see `createSandboxFileSystem`).
 */
export async function startE2BStandIn(options: E2BStandInOptions = {}): Promise<E2BStandIn> {
  const sandboxId = options.sandboxId ?? `sbx_${randomBytes(8).toString('hex')}`;
  const user = resolveSandboxUser(options.user ?? 'user');
  const root = await mkdtemp(join(tmpdir(), 'sandkit-e2b-'));
  if (user.switched) await chown(root, user.uid, user.gid);
  const fs = await createSandboxFileSystem(root, options.directories ?? {}, user).catch(async (error) => {
    await rm(root, { recursive: true, force: true });
    throw error;
  });
  const processes = new Map<number, RunningProcess>();
  const context: ProcessServiceContext = {
    sandboxId,
    user,
    workdir: user.home,
    fs,
    processes,
    streams: new Set(),
  };
  let state: E2BStandIn['state'] = 'running';

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    if (state !== 'running') {
      request.resume();
      sendSandboxNotFound(response, sandboxId);
      return;
    }
    route(request, response, context).catch((error: Error) => {
      if (!response.headersSent) sendConnectError(response, 500, 'internal', error.message);
      else response.end();
    });
  };
  let server: Server | undefined;
  let url = '';
  if (options.listen !== false) {
    server = createServer(handle);
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const killAll = async (): Promise<void> => {
    for (const running of processes.values()) running.cancelOutput();
    // A second pass catches children forked while the first one ran.
    for (let pass = 0; pass < 2; pass++) await signalSandboxProcesses(sandboxId, 'SIGKILL');
  };
  const standIn: E2BStandIn = {
    url,
    sandboxId,
    root,
    get state() {
      return state;
    },
    handle,
    async disappear() {
      state = 'gone';
      await killAll();
      standIn.dropStreams();
    },
    async pause() {
      state = 'paused';
      standIn.dropStreams();
      await signalSandboxProcesses(sandboxId, 'SIGSTOP');
    },
    async resume() {
      await signalSandboxProcesses(sandboxId, 'SIGCONT');
      state = 'running';
    },
    dropStreams() {
      for (const stream of context.streams) stream.destroy();
      context.streams.clear();
    },
    async close() {
      if (state === 'paused') await signalSandboxProcesses(sandboxId, 'SIGCONT');
      state = 'gone';
      await killAll();
      standIn.dropStreams();
      if (server) await closeServer(server);
      await rm(root, { recursive: true, force: true });
    },
  };
  return standIn;
}

async function route(
  request: IncomingMessage,
  response: ServerResponse,
  context: ProcessServiceContext,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://stand-in');
  const body = await readBody(request);
  const { user, workdir, fs } = context;
  const pathOf = (raw: string | null | undefined): string => resolveUserPath(raw ?? '', user.home, workdir);
  const json = (): { path?: string } => JSON.parse(body.toString('utf8') || '{}') as { path?: string };
  switch (`${request.method} ${url.pathname}`) {
    case 'GET /health':
      response.writeHead(204).end();
      return;
    case 'GET /files':
      return downloadFile(response, pathOf(url.searchParams.get('path')), fs);
    case 'POST /files':
      return uploadFiles(request, response, body, url.searchParams.get('path'), user, workdir, fs);
    case 'POST /process.Process/Start':
      return startProcess(
        request,
        response,
        decodeEnvelopes(body)[0] as Parameters<typeof startProcess>[2],
        context,
      );
    case 'POST /process.Process/SendSignal':
      return sendSignal(response, JSON.parse(body.toString('utf8') || '{}'), context);
    case 'POST /filesystem.Filesystem/Stat':
      return statEntry(response, pathOf(json().path), fs);
    case 'POST /filesystem.Filesystem/ListDir':
      return listDirectory(response, pathOf(json().path), fs);
    case 'POST /filesystem.Filesystem/Remove':
      return removeEntry(response, pathOf(json().path), fs);
    default:
      sendConnectError(
        response,
        404,
        'unimplemented',
        `${request.method} ${url.pathname} is not served by the stand-in`,
      );
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
