/**
 * Keeps the process's stdout for JSON-RPC only (case C01). MUST be the first import of the CLI entry:
 * ESM evaluates imports in order, so anything imported after it that logs at load time already
 * writes to stderr.
 *
 * With `sandkit mcp` (the MCP stdio transport owns fd 1):
 * - `console.log`, `console.info` and `console.debug` are rebound to stderr (Node sends them to stdout);
 * - `process.stdout.write` itself is redirected to stderr, so a dependency that captured a console
 *   method earlier, or writes to `process.stdout` directly, still cannot reach fd 1;
 * - {@link jsonRpcStdout} is the one writable that still reaches fd 1: give it to the transport.
 * Other subcommands keep stdout as is (their results are printed there).
 *
 * This module's side effect at import time is its purpose; it imports nothing of ours.
 * @module
 */
import { Writable } from 'node:stream';

const realWrite = process.stdout.write.bind(process.stdout);

/** Writes to the real fd 1, whatever `process.stdout.write` was rebound to. */
export const jsonRpcStdout = new Writable({
  write(chunk: Buffer | string, _encoding, callback) {
    realWrite(chunk, (error) => callback(error ?? null));
  },
});

/** `true` when the guard is on (the first CLI argument is `mcp`). */
export const stdoutGuarded = process.argv[2] === 'mcp';

if (stdoutGuarded) {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
}
