/**
 * Validates and fills the options of one local `exec` call, once, so the code below never
 * writes `?? default`.
 * @module
 */
import { type ExecOptions, SandkitError, SandkitErrorCode } from '@sandkit/core';

/** Defaults and fixed timings of the local adapter's exec. */
export const execDefaults = {
  /** Per-stream cap, in bytes. */
  maxOutputBytes: 1024 * 1024,
  /** After SIGTERM to the group, ms before SIGKILL. */
  killGraceMs: 1000,
} as const;

/** The largest delay `setTimeout` honours (about 24.8 days); longer ones fire at once. */
const maxTimerMs = 2 ** 31 - 1;

/** {@link ExecOptions} with every default filled. */
export interface NormalizedExecOptions {
  /** As given (relative or absolute), or `undefined` for the sandbox workdir. */
  cwd: string | undefined;
  env: Readonly<Record<string, string>>;
  /** Bytes for stdin, or `undefined` when stdin is closed. */
  stdin: Uint8Array | undefined;
  /** Milliseconds, or `undefined` for no timeout. */
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  maxOutputBytes: number;
  onStdout: ((chunk: Uint8Array) => void) | undefined;
  onStderr: ((chunk: Uint8Array) => void) | undefined;
  /** Absolute path of the shell. */
  shell: '/bin/sh' | '/bin/bash';
}

/**
 * Checks every field of `options` and fills the defaults.
 * @throws SandkitError `invalid_option` naming the field, the value and what is allowed.
 */
export function normalizeExecOptions(options: ExecOptions): NormalizedExecOptions {
  const {
    maxOutputBytes = execDefaults.maxOutputBytes,
    timeoutMs,
    shell = 'sh',
    env = {},
    cwd,
    stdin,
  } = options;
  if (!Number.isSafeInteger(maxOutputBytes) || maxOutputBytes < 0) {
    invalid(`maxOutputBytes must be a non-negative integer number of bytes, got ${String(maxOutputBytes)}`);
  }
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > maxTimerMs)
  ) {
    invalid(
      `timeoutMs must be a number of milliseconds in (0, ${maxTimerMs}], or absent for no timeout; got ${String(timeoutMs)}`,
    );
  }
  if (shell !== 'sh' && shell !== 'bash')
    invalid(`shell must be 'sh' or 'bash', got ${JSON.stringify(shell)}`);
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '' || cwd.includes('\0'))) {
    invalid(`cwd must be a non-empty path without NUL bytes, got ${JSON.stringify(cwd)}`);
  }
  if (typeof env !== 'object' || env === null) invalid('env must be an object of string values');
  for (const [name, value] of Object.entries(env)) {
    if (
      typeof value !== 'string' ||
      name === '' ||
      name.includes('=') ||
      name.includes('\0') ||
      value.includes('\0')
    ) {
      invalid(`env.${name} must be a string without NUL bytes, under a name without '=' or NUL`);
    }
  }
  if (stdin !== undefined && typeof stdin !== 'string' && !(stdin instanceof Uint8Array)) {
    invalid('stdin must be a string or a Uint8Array');
  }
  for (const name of ['onStdout', 'onStderr'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function')
      invalid(`${name} must be a function`);
  }
  return {
    cwd,
    env,
    stdin: stdin === undefined ? undefined : typeof stdin === 'string' ? Buffer.from(stdin, 'utf8') : stdin,
    timeoutMs,
    signal: options.signal,
    maxOutputBytes,
    onStdout: options.onStdout,
    onStderr: options.onStderr,
    shell: shell === 'bash' ? '/bin/bash' : '/bin/sh',
  };
}

/**
 * Checks the command line itself.
 * @throws SandkitError `invalid_option` when it is not a string or holds a NUL byte.
 */
export function assertCommand(command: unknown): asserts command is string {
  if (typeof command !== 'string' || command.includes('\0'))
    invalid('command must be a string without NUL bytes');
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
