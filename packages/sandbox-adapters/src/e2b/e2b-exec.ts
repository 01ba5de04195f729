/**
 * Runs one command in an E2B sandbox with the contract's semantics.
 *
 * The SDK runs `/bin/bash -l -c <script>`. Our script starts the caller's command with `setsid`
 * so it leads its own process group, records that group id in a file, and reports how it ended:
 * an EXIT trap writes the exit status; no status file means death by signal, which the script
 * reports on a final stderr line carrying a per-call token (stripped from the result).
 * On timeout or abort the group is killed from a second command (TERM, grace, KILL), the wrapper
 * is killed with `commands.kill`, and the group is checked gone (case B22). The SDK always gets an
 * explicit `timeoutMs`, never its 60 s default.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { type ExecOptions, type ExecResult, formatCommand, SandboxError, SandkitErrorCode, quoteShellArgument } from '@sandkit/core';
import { CommandExitError, type Sandbox } from 'e2b';
import { baseEnvironment } from '../local/local-exec.js';
import { abortedBeforeStart } from '../local/aborted-before-start.js';
import { normalizeExecOptions } from '../local/normalize-exec-options.js';
import { collectedOutput, OutputCollector } from '../local/output-collector.js';
import { toSandboxError } from './e2b-errors.js';
import type { NormalizedE2BOptions } from './e2b-options.js';

const execDir = '/tmp/.sandkit-exec';

/** Runs `command` in `sandbox`; never throws for a non-zero exit. */
export async function runE2BCommand(
  sandbox: Sandbox,
  command: string,
  rawOptions: ExecOptions,
  config: NormalizedE2BOptions,
): Promise<ExecResult> {
  const options = normalizeExecOptions(rawOptions);
  const maxOutputBytes = options.maxOutputBytes;
  if (options.signal?.aborted) return abortedBeforeStart(performance.now());
  const id = randomBytes(8).toString('hex');
  const token = `__sandkit_${id}__`;
  const cwd = options.cwd === undefined ? config.workdir : options.cwd.startsWith('/') ? options.cwd : `${config.workdir}/${options.cwd}`;
  const base = `${execDir}/${id}`;
  if (options.stdin !== undefined) {
    await sandbox.files.write(`${base}.in`, toArrayBuffer(options.stdin)).catch((error) => {
      throw toSandboxError(error, 'upload stdin');
    });
  }
  const script = wrapperScript({ command, cwd, base, token, shell: options.shell === '/bin/bash' ? 'bash' : 'sh', stdin: options.stdin !== undefined });

  const stdout = new OutputCollector(maxOutputBytes);
  const stderr = new OutputCollector(maxOutputBytes);
  let stderrTail = '';
  const encoder = new TextEncoder();
  let timedOut = false;
  let aborted = false;
  const started = performance.now();
  let handle: Awaited<ReturnType<Sandbox['commands']['run']>> & { pid: number; wait(): Promise<unknown> };
  try {
    handle = (await sandbox.commands.run(script, {
      background: true,
      envs: { ...baseEnvironment, ...config.envs, ...options.env },
      timeoutMs: (options.timeoutMs ?? config.defaultCommandTimeoutMs) + 30_000,
      onStdout: (text: string) => {
        const bytes = encoder.encode(text);
        stdout.push(Buffer.from(bytes));
        options.onStdout?.(bytes);
      },
      onStderr: (text: string) => {
        stderrTail = (stderrTail + text).slice(-512);
        const bytes = encoder.encode(text);
        stderr.push(Buffer.from(bytes));
        options.onStderr?.(bytes);
      },
    })) as typeof handle;
  } catch (error) {
    throw toSandboxError(error, 'start a command');
  }

  let killing: Promise<void> | undefined;
  const kill = (): void => {
    killing ??= killGroup(sandbox, base, handle.pid, config.killGraceMs);
  };
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          kill();
        }, options.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    kill();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  let exitCode: number | null;
  try {
    await handle.wait();
    exitCode = 0;
  } catch (error) {
    if (!(error instanceof CommandExitError)) {
      if (killing) await killing.catch(() => undefined);
      throw toSandboxError(error, 'run a command');
    }
    exitCode = error.exitCode;
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (killing) await killing;

  // Read how the command ended from the token line, then drop that line from stderr.
  let signal: string | null = null;
  const match = new RegExp(`${token} (cwd|signal)( \\d+)?\\n?$`).exec(stderrTail);
  let stderrText = stderr.text();
  let stderrBytes = stderr.total;
  if (match) {
    const line = match[0];
    stderrBytes -= Buffer.byteLength(line);
    const at = stderrText.lastIndexOf(token);
    if (at >= 0) stderrText = stderrText.slice(0, at);
    if (match[1] === 'cwd') {
      throw new SandboxError({
        code: SandkitErrorCode.cwdNotFound,
        message: `working directory ${cwd} does not exist in the sandbox; create it first or pass another cwd`,
        details: { cwd },
      });
    }
    exitCode = null;
    signal = signalName(Number(match[2]));
  } else if (timedOut || aborted) {
    exitCode = null;
    signal = 'SIGKILL';
  }
  return {
    exitCode,
    signal,
    ...collectedOutput(stdout, stderr),
    stderr: stderrText,
    stderrBytes,
    timedOut,
    aborted,
    durationMs: performance.now() - started,
  };
}

interface WrapperInput {
  command: string;
  cwd: string;
  base: string;
  token: string;
  shell: 'sh' | 'bash';
  stdin: boolean;
}

function wrapperScript(input: WrapperInput): string {
  const q = quoteShellArgument;
  const inner = `__sandkit_status=$2; trap 'echo $? > "$__sandkit_status"' EXIT; eval "$1"`;
  return [
    `mkdir -p ${execDir}`,
    `cd -- ${q(input.cwd)} 2>/dev/null || { printf '%s cwd\\n' ${q(input.token)} >&2; exit 97; }`,
    `${formatCommand(['setsid', input.shell, '-c', inner, input.shell, input.command, `${input.base}.status`])} < ${input.stdin ? q(`${input.base}.in`) : '/dev/null'} &`,
    '__p=$!',
    `echo "$__p" > ${q(`${input.base}.pgid`)}`,
    '{ wait "$__p"; } 2>/dev/null; __s=$?',
    `if [ -f ${q(`${input.base}.status`)} ]; then __s=$(cat ${q(`${input.base}.status`)}); rm -f ${q(input.base)}.*; exit "$__s"; fi`,
    `rm -f ${q(input.base)}.*`,
    `printf '%s signal %s\\n' ${q(input.token)} "$((__s - 128))" >&2`,
    'exit 255',
  ].join('\n');
}

/** TERM the command's group, wait up to the grace, KILL it, kill the wrapper, and check it is gone. */
async function killGroup(sandbox: Sandbox, base: string, wrapperPid: number, graceMs: number): Promise<void> {
  const steps = Math.max(1, Math.ceil(graceMs / 100));
  const pgidFile = quoteShellArgument(`${base}.pgid`);
  const script = [
    `pg=$(cat ${pgidFile} 2>/dev/null) || exit 0`,
    'kill -TERM -- "-$pg" 2>/dev/null',
    `i=0; while [ $i -lt ${steps} ] && kill -0 -- "-$pg" 2>/dev/null; do sleep 0.1; i=$((i+1)); done`,
    'kill -KILL -- "-$pg" 2>/dev/null',
    'i=0; while [ $i -lt 50 ] && kill -0 -- "-$pg" 2>/dev/null; do sleep 0.1; i=$((i+1)); done',
    'kill -0 -- "-$pg" 2>/dev/null && echo alive || echo gone',
  ].join('\n');
  const result = await sandbox.commands.run(script, { timeoutMs: graceMs + 30_000 }).catch((error: unknown) => {
    if (error instanceof CommandExitError) return error;
    throw toSandboxError(error, 'kill a timed-out command');
  });
  await sandbox.commands.kill(wrapperPid).catch(() => false);
  if (result.stdout.trim() === 'alive') {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: 'a timed-out command survived SIGKILL in the E2B sandbox',
    });
  }
}

const signalNames: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 6: 'SIGABRT', 9: 'SIGKILL', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM' };

function signalName(number: number): string {
  return signalNames[number] ?? `SIG${number}`;
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
