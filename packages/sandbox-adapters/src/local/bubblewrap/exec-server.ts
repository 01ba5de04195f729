/**
 * The host side of a bubblewrap sandbox's exec server (exec-server-main.ts): starts
 * `bwrap … -- node -e <server>` with a Node IPC channel, sends requests and routes replies.
 * Closing it SIGKILLs bwrap; with `--die-with-parent` and its own PID namespace, the kernel then
 * kills every process of the sandbox (background children and `setsid` daemons included).
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import {
  type ExecServerReply,
  type ExecServerRequest,
  type ExecServerTunnel,
  execServerMain,
} from './exec-server-main.js';
import { unixSocketFilter } from './seccomp-filter.js';

/** What a request resolves with: the `ok` reply, or the `error` reply as an object. */
export type ServerAnswer = Extract<ExecServerReply, { t: 'ok' | 'error' }>;

/** The file descriptor bwrap reads the seccomp program from (`--seccomp 4`). */
const seccompFd = 4;

/** One spawned command as the host sees it. */
export interface ServerCommand {
  /** Resolves with the shell's pid (in the sandbox's namespace), or the error reply. */
  readonly started: Promise<{ pid: number } | Extract<ExecServerReply, { t: 'error' }>>;
  /** Resolves when the shell has exited. */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
}

type SpawnRequest = Omit<Extract<ExecServerRequest, { t: 'spawn' }>, 'id' | 't'>;

/** A running exec server. */
export class ExecServer {
  private nextId = 1;
  private readonly pending = new Map<number, (reply: ExecServerReply) => void>();
  private readonly exitWaiters = new Map<number, (reply: Extract<ExecServerReply, { t: 'exit' }>) => void>();
  private gone: SandboxError | undefined;
  readonly closed: Promise<void>;
  /** Receives the tunnel steps the server sends (set by whoever relays them). */
  onTunnel: (step: ExecServerTunnel) => void = () => undefined;

  private constructor(
    private readonly child: ChildProcess,
    stderr: () => string,
  ) {
    child.on('message', (reply: ExecServerReply) => {
      if (reply.t === 'tunnel') {
        this.onTunnel(reply);
        return;
      }
      if (reply.t === 'exit') {
        this.exitWaiters.get(reply.id)?.(reply);
        this.exitWaiters.delete(reply.id);
        return;
      }
      this.pending.get(reply.id)?.(reply);
      this.pending.delete(reply.id);
    });
    this.closed = new Promise((done) => {
      child.once('exit', (code, signal) => {
        this.gone ??= new SandboxError({
          code: SandkitErrorCode.sandboxUnavailable,
          message: `the sandbox's bubblewrap process ended (${signal ?? `exit ${code}`}): ${stderr().trim() || 'no message'}; create a new sandbox`,
          details: { code, signal },
        });
        for (const waiter of this.pending.values())
          waiter({ t: 'error', id: 0, code: 'EGONE', message: this.gone.message });
        for (const waiter of this.exitWaiters.values())
          waiter({ t: 'exit', id: 0, code: null, signal: 'SIGKILL' });
        this.pending.clear();
        this.exitWaiters.clear();
        done();
      });
    });
  }

  /** The host pid of bwrap (its own process group: `detached`). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Starts bwrap with `args` before `--`, and the server after it.
   * @throws SandboxError `sandbox_start_failed` when bwrap exits before the server answers.
   */
  static async start(
    bwrapPath: string,
    args: readonly string[],
    env: Record<string, string>,
  ): Promise<ExecServer> {
    // esbuild's keepNames (tsx, some bundlers) wraps functions in `__name(fn, "name")` calls that
    // need its helper: the identity stands in for it.
    const source = `const __name = (fn) => fn; (${execServerMain.toString()})()`;
    const filter = unixSocketFilter();
    const seccomp = filter === undefined ? [] : ['--seccomp', String(seccompFd)];
    const child = spawn(bwrapPath, [...args, ...seccomp, '--', process.execPath, '-e', source], {
      env,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc', filter === undefined ? 'ignore' : 'pipe'],
      serialization: 'advanced',
    });
    const program = child.stdio[seccompFd];
    if (filter !== undefined && program !== null && program !== undefined && 'end' in program) {
      program.on('error', () => undefined); // bwrap gone before it read: the start error says why
      program.end(filter);
    }
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    const server = new ExecServer(child, () => stderr);
    const ready = await Promise.race([
      server.request({ t: 'read', id: 0, path: '/proc/self/stat' }).then(() => true),
      server.closed.then(() => false),
      new Promise<false>((done) => child.once('error', () => done(false))),
    ]);
    if (!ready || server.gone) {
      child.kill('SIGKILL');
      throw new SandboxError({
        code: SandkitErrorCode.sandboxStartFailed,
        message: `bubblewrap did not start the sandbox: ${stderr.trim() || 'it exited at once'}`,
        details: { bwrapPath, stderr },
      });
    }
    return server;
  }

  /** Sends a request and resolves with its `ok` or `error` reply (an `error` when the server is gone). */
  request(message: ExecServerRequest): Promise<ServerAnswer> {
    const id = this.nextId++;
    return new Promise((done) => {
      if (this.gone) return done({ t: 'error', id, code: 'EGONE', message: this.gone.message });
      this.pending.set(id, done as (reply: ExecServerReply) => void);
      this.child.send({ ...message, id });
    });
  }

  /** Sends a tunnel step to the server (dropped once it is gone). */
  sendTunnel(step: ExecServerTunnel): void {
    if (!this.gone && this.child.connected) this.child.send(step);
  }

  /** Spawns a command in the sandbox. */
  spawn(request: SpawnRequest): ServerCommand {
    const id = this.nextId++;
    const exited = new Promise<{ code: number | null; signal: string | null }>((done) => {
      this.exitWaiters.set(id, (reply) => done({ code: reply.code, signal: reply.signal }));
    });
    const started = new Promise<{ pid: number } | Extract<ExecServerReply, { t: 'error' }>>((done) => {
      if (this.gone) return done({ t: 'error', id, code: 'EGONE', message: this.gone.message });
      this.pending.set(id, (reply) => {
        if (reply.t === 'started') done({ pid: reply.pid });
        else if (reply.t === 'error') {
          this.exitWaiters.delete(id);
          done(reply);
        }
      });
      this.child.send({ t: 'spawn', id, ...request });
    });
    return { started, exited };
  }

  /** SIGKILLs bwrap (and so the whole sandbox) and waits for it to go. */
  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.closed;
  }
}
