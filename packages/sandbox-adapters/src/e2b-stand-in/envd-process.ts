/**
 * envd's process service, as the stand-in serves it: `process.Process/Start` (a Connect server
 * stream) and `process.Process/SendSignal`. Behaviour read from e2b-dev/infra at commit
 * 54693ff353d26c5fe1951db5467e751f3e2f984e (envd 0.6.13), `packages/envd/internal/services/process/`:
 *
 * - `handler/handler.go` `New`: the command runs as the default user (uid, gid and supplementary
 *   groups), with an environment of exactly PATH (envd's own), HOME, USER and LOGNAME of that user,
 *   envd's global variables (`E2B_SANDBOX`, `E2B_SANDBOX_ID`), then the request's `envs`. A cwd that
 *   does not exist is `invalid_argument`. Nothing else of the host leaks in; the SDK's `bash -l`
 *   builds the rest (profile scripts, PATH) as a login shell does.
 * - `handler/handler.go` `Wait`: the `end` event is sent only when both output pipes reach EOF and
 *   the process is reaped, so a background child that holds stdout keeps the stream open. A
 *   SIGKILL or SIGTERM through SendSignal, or the deadline, stops waiting for the pipes: what is
 *   still in them may be lost.
 * - `start.go`: the request's `Connect-Timeout-Ms` becomes the process context's deadline; when it
 *   passes, Go's `exec.CommandContext` SIGKILLs the direct child only (never its process group), and
 *   the stream ends with `deadline_exceeded`. A client that disconnects does not end the process.
 *   Keepalive events follow the `Keepalive-Ping-Interval` header (seconds).
 * - `signal.go`: SendSignal selects one pid, signals only that pid (not its group), and accepts only
 *   `SIGNAL_SIGKILL` and `SIGNAL_SIGTERM` (anything else is `unimplemented`); an unknown pid is
 *   `not_found` (`service.go` `getProcess`).
 *
 * Not reproduced: the oom_score_adj/ionice/nice wrapper, cgroups, PTYs, stdin input RPCs.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeEnvelope, endStreamFlag } from './connect-envelope.js';
import type { SandboxFileSystem } from './sandbox-file-system.js';
import type { SandboxUser } from './sandbox-user.js';

/** envd's own PATH in E2B's templates (a systemd service): the commands' starting PATH. */
export const envdPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What the process service needs from its sandbox. */
export interface ProcessServiceContext {
  readonly sandboxId: string;
  readonly user: SandboxUser;
  /** Default working directory (envd's `defaults.Workdir`). */
  readonly workdir: string;
  /** Where the sandbox's paths live on the host, and how its commands see them. */
  readonly fs: SandboxFileSystem;
  /** Live processes by pid. */
  readonly processes: Map<number, RunningProcess>;
  /** Open Start streams, so a test can drop them. */
  readonly streams: Set<ServerResponse>;
}

/** One started process. */
export interface RunningProcess {
  readonly child: ChildProcess;
  /** Stops waiting for the output pipes (SendSignal KILL/TERM, deadline). */
  cancelOutput(): void;
}

interface StartRequest {
  process: { cmd: string; args?: string[]; envs?: Record<string, string>; cwd?: string };
  stdin?: boolean;
}

/** Serves one `process.Process/Start` call. */
export async function startProcess(
  request: IncomingMessage,
  response: ServerResponse,
  message: StartRequest,
  context: ProcessServiceContext,
): Promise<void> {
  const { user } = context;
  response.writeHead(200, { 'content-type': 'application/connect+json' });
  context.streams.add(response);
  response.once('close', () => context.streams.delete(response));
  const send = (event: unknown): void => {
    if (!response.writableEnded && !response.destroyed) response.write(encodeEnvelope({ event }));
  };
  const end = (error?: { code: string; message: string }): void => {
    if (response.writableEnded || response.destroyed) return;
    response.end(encodeEnvelope(error ? { error } : {}, endStreamFlag));
  };
  const cwd = resolveUserPath(message.process.cwd ?? '', user.home, context.workdir);
  if (!(await stat(context.fs.hostPath(cwd)).catch(() => undefined)))
    return end({ code: 'invalid_argument', message: `cwd '${cwd}' does not exist` });

  const env: Record<string, string> = {
    PATH: envdPath,
    HOME: user.home,
    USER: user.name,
    LOGNAME: user.name,
    E2B_SANDBOX: 'true',
    E2B_SANDBOX_ID: context.sandboxId,
    ...message.process.envs,
  };
  const argv = [message.process.cmd, ...(message.process.args ?? [])];
  const command = context.fs.command(
    user.switched
      ? ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--init-groups', '--', ...argv]
      : argv,
    cwd,
  );
  const child = spawn(command.file, command.args, {
    cwd: command.cwd,
    env,
    stdio: [message.stdin === false ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const spawned = await new Promise<boolean>((done) => {
    child.once('spawn', () => done(true));
    child.once('error', () => done(false));
  });
  const pid = child.pid;
  if (!spawned || pid === undefined)
    return end({ code: 'invalid_argument', message: `error starting process '${argv.join(' ')}'` });

  let cancelOutput = (): void => undefined;
  const outputCancelled = new Promise<void>((done) => {
    cancelOutput = done;
  });
  context.processes.set(pid, { child, cancelOutput: () => cancelOutput() });
  send({ start: { pid } });

  const keepaliveMs = Number(request.headers['keepalive-ping-interval'] ?? 0) * 1000;
  let keepalive: NodeJS.Timeout | undefined;
  const armKeepalive = (): void => {
    if (keepaliveMs <= 0) return;
    clearTimeout(keepalive);
    keepalive = setTimeout(() => {
      send({ keepalive: {} });
      armKeepalive();
    }, keepaliveMs);
  };
  armKeepalive();
  const forward = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    send({ data: { [stream]: chunk.toString('base64') } });
    armKeepalive();
  };
  child.stdout?.on('data', forward('stdout'));
  child.stderr?.on('data', forward('stderr'));

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const deadlineMs = Number(request.headers['connect-timeout-ms'] ?? 0);
  const deadline =
    deadlineMs > 0
      ? setTimeout(() => {
          cancelOutput();
          killPid(pid, 'SIGKILL'); // exec.CommandContext: the direct child only
          end({ code: 'deadline_exceeded', message: 'context deadline exceeded' });
        }, deadlineMs)
      : undefined;

  await Promise.race([Promise.all([closed(child.stdout), closed(child.stderr)]), outputCancelled]);
  const { code, signal } = await exited;
  clearTimeout(deadline);
  clearTimeout(keepalive);
  context.processes.delete(pid);
  child.stdout?.destroy();
  child.stderr?.destroy();
  const status = signal ? `signal: ${signalText(signal)}` : `exit status ${code}`;
  send({
    end: { exitCode: code ?? -1, exited: signal === null, status, ...(code === 0 ? {} : { error: status }) },
  });
  end();
}

interface SignalRequest {
  process?: { pid?: number; selector?: { pid?: number } };
  signal?: string | number;
}

/** Serves `process.Process/SendSignal`: pid only, SIGKILL and SIGTERM only. */
export function sendSignal(
  response: ServerResponse,
  message: SignalRequest,
  context: ProcessServiceContext,
): void {
  const pid = message.process?.pid ?? message.process?.selector?.pid;
  const running = pid === undefined ? undefined : context.processes.get(pid);
  if (pid === undefined || running === undefined) {
    sendConnectError(response, 404, 'not_found', `process with pid ${pid} not found`);
    return;
  }
  const signal =
    message.signal === 'SIGNAL_SIGKILL' || message.signal === 9
      ? 'SIGKILL'
      : message.signal === 'SIGNAL_SIGTERM' || message.signal === 15
        ? 'SIGTERM'
        : undefined;
  if (signal === undefined) {
    sendConnectError(response, 501, 'unimplemented', `invalid signal: ${String(message.signal)}`);
    return;
  }
  running.cancelOutput();
  killPid(pid, signal);
  response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
}

/** envd `permissions.ExpandAndResolve`: empty → default workdir, `~` → home, relative → under home. */
export function resolveUserPath(path: string, home: string, workdir: string): string {
  let resolved = path === '' ? workdir : path;
  if (resolved === '~' || resolved.startsWith('~/')) resolved = home + resolved.slice(1);
  if (resolved.startsWith('/')) return resolved;
  return `${home}/${resolved}`.replace(/\/+/g, '/');
}

/** A Connect unary error: HTTP status for the code, JSON `{code, message}`. */
export function sendConnectError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code, message }));
}

function closed(stream: NodeJS.ReadableStream | null): Promise<void> {
  return stream === null ? Promise.resolve() : new Promise((done) => stream.once('close', () => done()));
}

function killPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // ESRCH: already reaped
  }
}

/** Go's `syscall.Signal.String()` for the signals a command usually dies of. */
function signalText(signal: NodeJS.Signals): string {
  const names: Partial<Record<NodeJS.Signals, string>> = {
    SIGKILL: 'killed',
    SIGTERM: 'terminated',
    SIGINT: 'interrupt',
    SIGHUP: 'hangup',
    SIGPIPE: 'broken pipe',
    SIGABRT: 'aborted',
    SIGSEGV: 'segmentation fault',
  };
  return names[signal] ?? signal.toLowerCase();
}
