/**
 * The contract every sandbox vendor implements: run a command, read a file, write a file.
 *
 * Everything the tools need goes through these three methods, so a tool written once runs on
 * every adapter (local directory, Docker container, E2B sandbox). Lifecycle (create, destroy,
 * pooling) lives beside this contract, in {@link SandboxAdapter} and `SandboxProvider`.
 *
 * @module
 */

/** Bytes or text. Text is encoded as UTF-8. */
export type SandboxData = Uint8Array | string;

/**
 * Options of {@link SandboxClient.exec}.
 *
 * Absent fields take the defaults documented on each; adapters normalise them once.
 */
export interface ExecOptions {
  /**
   * Working directory inside the sandbox. Relative paths resolve against the sandbox's workdir.
   * @default the sandbox's workdir
   * @throws SandboxError with code `cwd_not_found` when the directory does not exist.
   */
  cwd?: string;
  /**
   * Variables added on top of the sandbox's non-interactive base environment
   * (`NO_COLOR=1`, `TERM=dumb`, `GIT_TERMINAL_PROMPT=0`, `PAGER=cat`, `LC_ALL=C.UTF-8`).
   * A caller's value wins over the base.
   */
  env?: Record<string, string>;
  /**
   * Bytes delivered on the command's standard input, followed by EOF.
   * Absent: stdin is closed (`/dev/null`), so `cat` or `rg` without a path return at once.
   */
  stdin?: SandboxData;
  /**
   * Milliseconds before the whole process group is killed (SIGTERM, then SIGKILL after a grace).
   * The result then has `timedOut: true`, `exitCode: null` and the output collected so far.
   * @default no timeout
   */
  timeoutMs?: number;
  /** Aborting kills the whole process group like a timeout; the result has `aborted: true`. */
  signal?: AbortSignal;
  /**
   * Per-stream cap, in bytes, on what is kept in `stdout` / `stderr`. The cap applies while the
   * output streams, so a command printing gigabytes does not grow host memory, and never splits a
   * UTF-8 character. `stdoutBytes` / `stderrBytes` still count every byte.
   * @default 1_048_576 (1 MiB)
   */
  maxOutputBytes?: number;
  /**
   * Called with every raw stdout chunk as it arrives (before any cap). Adapters that capture output
   * where the command runs follow the log file live to serve it, so with a callback every byte
   * crosses to the host (host memory still stays bounded by the cap); without callbacks only the
   * capped head and tail do.
   */
  onStdout?: (chunk: Uint8Array) => void;
  /** Called with every raw stderr chunk as it arrives (before any cap). */
  onStderr?: (chunk: Uint8Array) => void;
  /** Run the command with `/bin/bash -c` instead of `/bin/sh -c`. @default 'sh' */
  shell?: 'sh' | 'bash';
}

/** What a command did. A non-zero exit is a result, never a throw. */
export interface ExecResult {
  /** The exit status, or `null` when the command was killed by a signal (timeout, abort, crash). */
  exitCode: number | null;
  /** The signal that ended the command (for example `'SIGKILL'`), or `null`. */
  signal: string | null;
  /** Standard output, decoded as UTF-8, cut at `maxOutputBytes` on a character boundary. */
  stdout: string;
  /** Standard error, decoded as UTF-8, cut at `maxOutputBytes` on a character boundary. */
  stderr: string;
  /** Every byte the command wrote to stdout, including bytes dropped by the cap. */
  stdoutBytes: number;
  /** Every byte the command wrote to stderr, including bytes dropped by the cap. */
  stderrBytes: number;
  /** `true` when stdout was cut at `maxOutputBytes`. */
  stdoutTruncated: boolean;
  /** `true` when stderr was cut at `maxOutputBytes`. */
  stderrTruncated: boolean;
  /**
   * The end of stdout when it was cut: the last `min(maxOutputBytes, stdoutBytes - maxOutputBytes)`
   * bytes, never overlapping the kept head, decoded as UTF-8 from the first whole character (so
   * `stdout + stdoutTail` is the whole stream when it is at most twice the cap, up to a character
   * split at the cut). Absent when stdout was not cut, or when the adapter does not capture output
   * where the command runs.
   */
  stdoutTail?: string;
  /** The end of stderr when it was cut; see {@link ExecResult.stdoutTail}. */
  stderrTail?: string;
  /**
   * Where the whole output is kept in the sandbox (absolute sandbox paths), present when a stream
   * was cut and the adapter keeps the command's log: page through it with `readFile` or `exec`.
   * Each adapter documents how long it keeps these files.
   */
  outputLog?: { stdout: string; stderr: string };
  /** `true` when `timeoutMs` elapsed and the process group was killed. */
  timedOut: boolean;
  /** `true` when `signal` was aborted and the process group was killed. */
  aborted: boolean;
  /** Wall time from start to exit, in milliseconds. */
  durationMs: number;
}

/** Options of {@link SandboxClient.readFile}. */
export interface ReadFileOptions {
  signal?: AbortSignal;
}

/** Options of {@link SandboxClient.writeFile}. */
export interface WriteFileOptions {
  /**
   * File mode for a new file (for example `0o755`). An existing file keeps its own mode unless
   * this is given.
   * @default 0o644 for a new file
   */
  mode?: number;
  signal?: AbortSignal;
}

/**
 * The three-method contract every sandbox vendor implements.
 *
 * Paths are sandbox paths: relative ones resolve against the sandbox's workdir.
 */
export interface SandboxClient {
  /**
   * Runs `command` with `/bin/sh -c` (or bash, see {@link ExecOptions.shell}) in its own process
   * group inside the sandbox.
   * @throws SandboxError `cwd_not_found` when `cwd` does not exist, `sandbox_destroyed` after
   *   destroy, `sandbox_unavailable` when the sandbox cannot be reached.
   */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /**
   * Reads a whole file as bytes. Symlinks are followed as the kernel follows them (`..` after a
   * symlinked directory included).
   * @throws SandboxError `file_not_found` when it does not exist, `is_directory` for a directory;
   *   `refused` on the local and Docker adapters for a pipe, socket or device, which is not a
   *   regular file (E2B's file API waits on a pipe until the adapter's request deadline);
   *   `refused` on every adapter for a symlink loop (more than 40 links); `too_large` for a file
   *   larger than one buffer holds. SandkitError `invalid_option` for an empty path, or one with a
   *   NUL byte or a lone UTF-16 surrogate (no file can be named by it).
   */
  readFile(path: string, options?: ReadFileOptions): Promise<Uint8Array>;
  /**
   * Writes a whole file atomically (temp file + rename), creating parent directories, keeping the
   * mode of an existing file.
   *
   * Symlinks at the end of the path are followed as `echo > link` follows them: the link stays and
   * the file it leads to (through a chain of links too) is replaced atomically, keeping its mode; a
   * dangling link's target is created (its parents too). The adapters do not confine paths: a link
   * leading outside the workdir is followed like any path (confining is the tools' `root`).
   * @throws SandboxError `is_directory` when the path (or the file its links lead to) is a
   *   directory, `refused` for a symlink loop (over 40 links), `sandbox_destroyed` after destroy.
   *   SandkitError `invalid_option` for a path as readFile refuses it.
   */
  writeFile(path: string, data: SandboxData, options?: WriteFileOptions): Promise<void>;
}
