/**
 * exec: runs a shell command (POSIX `sh -c`) in the sandbox. Exit codes are data: a non-zero exit
 * is a normal result, never an error. The command runs in its own process group; a timeout or an
 * abort kills the whole group. Output is saved whole in the sandbox; what comes back is capped at
 * `maxOutputBytes` as head + tail with a marker, and the path of the saved file (read_file pages
 * through it). `background: true` starts the command detached and returns at once (see
 * background-process.ts).
 * @module
 */
import { defineTool, type SandboxClient, type Tool } from '@sandkit/core';
import { cwdToolError } from './cwd-tool-error.js';
import { z } from 'zod';
import { hasNoNul } from '../workspace/text-checks.js';
import type { CodingToolOptions, ToolContext } from '../workspace/coding-tool-options.js';
import { resolveRoot, resolveToolPath } from '../workspace/resolve-path.js';
import { formatProcessId, startBackground } from './background-process.js';
import {
  backendContexts,
  describeBackends,
  type ExecBackendOptions,
  normalizeExecBackends,
} from './exec-backends.js';
import { runCaptured } from './run-captured.js';

/** Default of the `timeoutMs` argument: 120 s. */
export const defaultExecTimeoutMs = 120_000;
/** Largest `timeoutMs` the model may ask for: 600 s. */
export const maxExecTimeoutMs = 600_000;

const baseDescription = `Run a shell command (POSIX sh -c) in the workspace and get its exit code, stdout and stderr.
- cwd is relative to the workspace root (default: the root). Commands run non-interactively: stdin is closed, NO_COLOR=1.
- timeoutMs defaults to ${defaultExecTimeoutMs} and is at most ${maxExecTimeoutMs}; on timeout the whole process group is killed and timedOut is true with the output so far.
- A non-zero exitCode is a normal result: read stderr and fix the command. When the command was killed by a signal, exitCode is null and signal names it: SIGSEGV/SIGBUS/SIGABRT a crash, SIGKILL a kill (also the out-of-memory killer), SIGTERM/SIGKILL with timedOut our timeout. An exitCode of 128+N means a program inside the command died of signal N (139 = SIGSEGV, 137 = SIGKILL).
- NUL and other control bytes (not tab, CR, LF) are shown as \\xNN, output full of them is described as binary; the raw bytes stay in outputFile (notice says so).
- Long output is cut to its head and tail with a marker saying how many bytes were left out; the whole output is saved in the file given as outputFile (stderrFile for stderr): read it with read_file (offset/limit) instead of re-running the command.
- For servers, watchers and long builds set background: true: it returns { processId, outputFile } at once; then use read_output with the processId to see new output and whether it still runs, and kill_process to stop it.`;

const foregroundOutput = z.object({
  exitCode: z.number().int().nullable(),
  /** The signal that ended the command (`'SIGSEGV'`, `'SIGKILL'`); absent when it exited. */
  signal: z.string().optional(),
  stdout: z.string(),
  stderr: z.string(),
  timedOut: z.boolean(),
  aborted: z.boolean().optional(),
  durationMs: z.number().nonnegative(),
  truncated: z.boolean(),
  stdoutBytes: z.number().int().nonnegative(),
  stderrBytes: z.number().int().nonnegative(),
  outputFile: z.string().optional(),
  stderrFile: z.string().optional(),
  backend: z.string().optional(),
  notice: z.string().optional(),
});

const backgroundOutput = z.object({
  processId: z.string(),
  outputFile: z.string(),
  backend: z.string().optional(),
});

/** Result of the exec tool: a finished command, or a started background command. */
export const execOutputSchema = z.union([foregroundOutput, backgroundOutput]);

/** Options of {@link createExecTool}. */
export type ExecToolOptions = CodingToolOptions & ExecBackendOptions;

/**
 * Creates the `exec` tool (permission `exec`).
 *
 * With `backends`, the tool takes a `backend` argument whose choices and descriptions are listed
 * in its description; output files and background commands live in the chosen backend.
 * @throws SandkitError `invalid_option` for bad options (see normalizeCodingToolOptions, normalizeExecBackends).
 */
export function createExecTool(client: SandboxClient, options: ExecToolOptions = {}): Tool {
  const backends = normalizeExecBackends(client, options);
  const contexts = backendContexts(backends, options);
  const inputShape = {
    command: z
      .string()
      .min(1)
      .refine(hasNoNul, 'command must not contain a NUL byte (sh -c cannot pass one)')
      .describe('The shell command line, run with sh -c.'),
    cwd: z
      .string()
      .optional()
      .describe('Directory to run in, relative to the workspace root. Default: the root.'),
    timeoutMs: z
      .number()
      .int()
      .min(1)
      .max(maxExecTimeoutMs)
      .optional()
      .describe(
        `Milliseconds before the command is killed (default ${defaultExecTimeoutMs}, max ${maxExecTimeoutMs}). Ignored with background.`,
      ),
    background: z
      .boolean()
      .optional()
      .describe('Start detached and return { processId, outputFile } at once.'),
  };
  const inputSchema = backends.configured
    ? z.object({
        ...inputShape,
        backend: z
          .enum(backends.names)
          .optional()
          .describe(`Where to run the command (default "${backends.defaultName}").`),
      })
    : z.object(inputShape);
  const description = backends.configured
    ? `${baseDescription}\nBackends (choose with the backend argument):\n${describeBackends(backends)}`
    : baseDescription;
  return defineTool({
    name: 'exec',
    description,
    permission: 'exec',
    inputSchema,
    outputSchema: execOutputSchema,
    async execute(input, { signal }) {
      const backend =
        ('backend' in input ? (input.backend as string | undefined) : undefined) ?? backends.defaultName;
      const context = contexts.get(backend) as ToolContext;
      const root = await resolveRoot(context);
      const cwd = (await resolveToolPath(context, input.cwd ?? '.')).absolute;
      const tag = backends.configured ? { backend } : {};
      try {
        if (input.background === true) {
          const started = await startBackground(context.client, input.command, { cwd, root });
          return {
            processId: formatProcessId(backends, backend, started.id),
            outputFile: started.files.relativeLog,
            ...tag,
          };
        }
        const run = await runCaptured(context.client, input.command, {
          cwd,
          root,
          timeoutMs: input.timeoutMs ?? defaultExecTimeoutMs,
          budgetBytes: Math.max(512, context.maxOutputBytes - 1024),
          ...(signal ? { signal } : {}),
        });
        const notes = [run.stdout.note, run.stderr.note].filter((note) => note !== undefined);
        return {
          exitCode: run.exitCode,
          ...(run.signal === null ? {} : { signal: run.signal }),
          stdout: run.stdout.text,
          stderr: run.stderr.text,
          timedOut: run.timedOut,
          ...(run.aborted ? { aborted: true } : {}),
          durationMs: run.durationMs,
          truncated: run.stdout.truncated || run.stderr.truncated,
          stdoutBytes: run.stdout.totalBytes,
          stderrBytes: run.stderr.totalBytes,
          ...(run.stdout.file
            ? { outputFile: run.stdout.file }
            : run.stderr.file
              ? { outputFile: run.stderr.file }
              : {}),
          ...(run.stderr.file ? { stderrFile: run.stderr.file } : {}),
          ...tag,
          ...(notes.length > 0 ? { notice: notes.join('; ') } : {}),
        };
      } catch (error) {
        throw cwdToolError(error, input.cwd);
      }
    },
  });
}
