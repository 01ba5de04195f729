/**
 * Normalisation of `exec` options for the Docker adapter (one place for every default and check).
 * @module
 */
import { posix } from 'node:path';
import { type ExecOptions, SandkitError, SandkitErrorCode } from '@sandkit/core';

/** Per-stream cap when `maxOutputBytes` is absent: 1 MiB. */
export const defaultMaxOutputBytes = 1024 * 1024;

/** {@link ExecOptions} checked, with defaults filled and paths resolved. */
export interface NormalizedExecOptions {
  cwd: string;
  /** `NAME=value` pairs. */
  env: string[];
  stdin: Uint8Array | undefined;
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  maxOutputBytes: number;
  shell: '/bin/sh' | '/bin/bash';
  onStdout: ((chunk: Uint8Array) => void) | undefined;
  onStderr: ((chunk: Uint8Array) => void) | undefined;
}

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Checks `options` and fills defaults; relative `cwd` resolves against `workdir`.
 * @throws SandkitError `invalid_option` with a message naming the option and its value.
 */
export function normalizeDockerExecOptions(
  command: string,
  options: ExecOptions,
  workdir: string,
): NormalizedExecOptions {
  if (typeof command !== 'string') throw invalid(`command must be a string, got ${typeof command}`);
  if (command.includes('\0')) throw invalid('command must not contain a NUL byte');
  const maxOutputBytes = options.maxOutputBytes ?? defaultMaxOutputBytes;
  if (!Number.isInteger(maxOutputBytes) || maxOutputBytes < 0) {
    throw invalid(`maxOutputBytes must be a non-negative integer, got ${options.maxOutputBytes}`);
  }
  const timeoutMs = options.timeoutMs;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw invalid(`timeoutMs must be a positive finite number of milliseconds, got ${timeoutMs}`);
  }
  const shell = options.shell ?? 'sh';
  if (shell !== 'sh' && shell !== 'bash')
    throw invalid(`shell must be 'sh' or 'bash', got ${JSON.stringify(shell)}`);
  const env: string[] = [];
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (!envName.test(name))
      throw invalid(`env name "${name}" is not a valid variable name ([A-Za-z_][A-Za-z0-9_]*)`);
    if (typeof value !== 'string' || value.includes('\0'))
      throw invalid(`env ${name} must be a string without NUL bytes`);
    env.push(`${name}=${value}`);
  }
  if (options.cwd !== undefined && (typeof options.cwd !== 'string' || options.cwd.includes('\0'))) {
    throw invalid(`cwd must be a path string without NUL bytes, got ${JSON.stringify(options.cwd)}`);
  }
  return {
    cwd: options.cwd === undefined ? workdir : posix.resolve(workdir, options.cwd),
    env,
    stdin:
      options.stdin === undefined
        ? undefined
        : typeof options.stdin === 'string'
          ? Buffer.from(options.stdin, 'utf8')
          : options.stdin,
    timeoutMs,
    signal: options.signal,
    maxOutputBytes,
    shell: shell === 'bash' ? '/bin/bash' : '/bin/sh',
    onStdout: options.onStdout,
    onStderr: options.onStderr,
  };
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
