/**
 * run_tests: runs a project's tests and reports what they did, parsed from the runner's own
 * output (parseTestOutput). The command's stdout and stderr are merged (`{ CMD\n} 2>&1`, exit
 * status kept). Counts are omitted when no summary was recognised, never invented; a non-zero
 * exit (or a timeout) with no failed test parsed is flagged `unparsed: true` and is never a pass.
 * A timeout is a result (`timedOut: true`, `exitCode: null`), not an error. A run ended by a signal
 * (a crash, a kill, the out-of-memory killer) names it in `signal`, whether the runner itself or
 * the wrapping shell (exit status 128 + N) reported it.
 * @module
 */
import { defineTool, type SandboxClient, SandkitErrorCode, type Tool, ToolError } from '@sandkit/core';
import { cwdToolError } from '../exec/cwd-tool-error.js';
import { z } from 'zod';
import { hasNoNul } from '../workspace/text-checks.js';
import { parseTestOutput } from '../parsers/parse-test-output.js';
import { type ParsedTestOutput, testFrameworks } from '../parsers/test-output-types.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { resolveToolPath } from '../workspace/resolve-path.js';
import { type DetectedTestCommand, detectTestCommand, frameworkOfScript } from './detect-test-command.js';
import { endedBySignal } from './ended-by-signal.js';
import { visibleControlBytes } from '../exec/visible-control-bytes.js';
import { TailBuffer } from './output-tail.js';

/** Default of the `timeoutMs` argument: 300 s. */
export const defaultTestTimeoutMs = 300_000;
/** Largest `timeoutMs`: 1800 s. */
export const maxTestTimeoutMs = 1_800_000;
/** Output kept in host memory for parsing (the head); the last MiB is kept apart so a summary is never lost. */
const parseHeadBytes = 64 * 1024 * 1024;
const parseTailBytes = 1024 * 1024;
const maxTestsListed = 200;
const maxFailuresListed = 50;
const maxMessageChars = 500;

/** Environment that asks every runner not to colour its output. */
export const noColorEnv: Record<string, string> = {
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  CI: '1',
  PY_COLORS: '0',
  CARGO_TERM_COLOR: 'never',
  NODE_DISABLE_COLORS: '1',
};

const description = `Run the project's tests and get per-test results parsed from the runner's output.
- command: the test command (e.g. "python3 -m pytest -rA tests/test_x.py", "npx vitest run src/a.test.ts"). When absent it is detected: package.json test script (npm test), pytest, cargo test, go test ./...
- framework: ${testFrameworks.join(' | ')}, when detection guesses wrong.
- junit-xml: the JUnit XML report any runner writes (Surefire TEST-*.xml, phpunit --log-junit, ctest --output-junit, pytest --junitxml, node --test-reporter=junit, Catch2 -r junit, ...): print it in the command (e.g. "phpunit --log-junit r.xml; s=$?; cat r.xml; exit $s"). A cut or damaged report gives a failure named junit-xml and no counts.
- Returns exitCode, counts (passed/failed/skipped/total, only when the runner printed a summary), failures with their first error line, the tests with their status (a test the runner retried is listed once, with its last status and tries: how many times it ran), and the tail of the output (control bytes shown as \\xNN).
- unparsed: true means the run failed (non-zero exit or timeout) but no failing test could be read: look at output, the failure is outside the tests (syntax error, missing dependency, bad command).
- signal: the signal that ended the run, when one did (SIGSEGV or SIGABRT: a crash; SIGKILL: killed, often out of memory). A test that was running when a runner crashed is listed as failed when the output names it.
- timeoutMs defaults to ${defaultTestTimeoutMs} (max ${maxTestTimeoutMs}); on timeout the run is killed and timedOut is true. Run a subset of tests to go faster.`;

const inputSchema = z.object({
  command: z
    .string()
    .min(1)
    .refine(hasNoNul, 'command must not contain a NUL byte (sh -c cannot pass one)')
    .optional()
    .describe('Test command; detected from the project when absent.'),
  cwd: z
    .string()
    .optional()
    .describe('Directory to run in, relative to the workspace root. Default: the root.'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(maxTestTimeoutMs)
    .optional()
    .describe(`Milliseconds before the run is killed (default ${defaultTestTimeoutMs}).`),
  framework: z
    .enum(testFrameworks)
    .optional()
    .describe('The runner whose output to parse; detected when absent.'),
});

const outputSchema = z.object({
  command: z.string(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().nonnegative(),
  framework: z.enum(testFrameworks).optional(),
  passed: z.number().int().nonnegative().optional(),
  failed: z.number().int().nonnegative().optional(),
  skipped: z.number().int().nonnegative().optional(),
  total: z.number().int().nonnegative().optional(),
  tests: z
    .array(
      z.object({
        name: z.string(),
        status: z.enum(['passed', 'failed', 'skipped', 'error']),
        tries: z.number().int().min(2).optional(),
      }),
    )
    .optional(),
  testsOmitted: z.number().int().positive().optional(),
  failures: z.array(z.object({ name: z.string(), message: z.string() })).optional(),
  unparsed: z.boolean().optional(),
  signal: z.string().optional(),
  output: z.string(),
  notice: z.string().optional(),
});

/** Result of run_tests. */
export type RunTestsOutput = z.output<typeof outputSchema>;

/**
 * Creates the `run_tests` tool (permission `exec`). Its calls fail with ToolError `not_found` for a
 * `cwd` that is not a directory of the workspace or a directory with no test setup to detect.
 * @throws SandkitError `invalid_option` for bad options.
 */
export function createRunTestsTool(
  client: SandboxClient,
  options: CodingToolOptions = {},
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  const outputTailBytes = Math.floor(context.maxOutputBytes / 4);
  return defineTool({
    name: 'run_tests',
    description,
    permission: 'exec',
    inputSchema,
    outputSchema,
    async execute(input, { signal }) {
      try {
        return await runTests(input, signal);
      } catch (error) {
        throw cwdToolError(error, input.cwd);
      }
    },
  });

  async function runTests(
    input: z.output<typeof inputSchema>,
    signal: AbortSignal | undefined,
  ): Promise<RunTestsOutput> {
    const cwd = (await resolveToolPath(context, input.cwd ?? '.')).absolute;
    const detected: DetectedTestCommand | undefined = input.command
      ? { command: input.command, reason: 'given' }
      : await detectTestCommand(client, cwd);
    if (!detected) {
      throw new ToolError({
        code: SandkitErrorCode.notFound,
        message: `no test setup found in ${input.cwd ?? 'the workspace root'} (no package.json test script, pytest config or tests/, Cargo.toml, go.mod); pass command`,
      });
    }
    const tail = new TailBuffer(parseTailBytes);
    const run = await client.exec(`{ ${detected.command}\n} 2>&1`, {
      cwd,
      env: noColorEnv,
      timeoutMs: input.timeoutMs ?? defaultTestTimeoutMs,
      maxOutputBytes: parseHeadBytes,
      onStdout: (chunk) => tail.push(chunk),
      ...(signal ? { signal } : {}),
    });
    const tailText = tail.text();
    const text = run.stdoutTruncated ? `${run.stdout}\n${tailText}` : run.stdout;
    const framework =
      input.framework ?? detected.framework ?? (input.command ? frameworkOfScript(input.command) : undefined);
    const parsed = parseTestOutput(text, framework ? { framework } : {});
    return summarise(
      detected.command,
      run,
      parsed,
      tailOf(run.stdoutTruncated ? tailText : run.stdout, outputTailBytes),
    );
  }
}

function summarise(
  command: string,
  run: {
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    aborted: boolean;
    durationMs: number;
  },
  parsed: ParsedTestOutput,
  output: string,
): RunTestsOutput {
  const failing = parsed.tests.filter((test) => test.status === 'failed' || test.status === 'error').length;
  const failedCount = Math.max(parsed.failed ?? 0, failing, parsed.failures.length);
  const unparsed = run.exitCode !== 0 && failedCount === 0;
  const signal = endedBySignal(run);
  const ordered = [
    ...parsed.tests.filter((test) => test.status === 'failed' || test.status === 'error'),
    ...parsed.tests.filter((test) => test.status !== 'failed' && test.status !== 'error'),
  ];
  const visible = visibleControlBytes(output, 'output');
  const tests = ordered.slice(0, maxTestsListed).map((test) => ({
    name: test.name,
    status: test.status,
    ...(test.tries === undefined ? {} : { tries: test.tries }),
  }));
  const result: RunTestsOutput = {
    command,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    ...(parsed.framework === 'unknown' ? {} : { framework: parsed.framework }),
    ...(parsed.passed === undefined ? {} : { passed: parsed.passed }),
    ...(parsed.failed === undefined ? {} : { failed: parsed.failed }),
    ...(parsed.skipped === undefined ? {} : { skipped: parsed.skipped }),
    ...(parsed.total === undefined ? {} : { total: parsed.total }),
    ...(tests.length > 0 ? { tests } : {}),
    ...(ordered.length > maxTestsListed ? { testsOmitted: ordered.length - maxTestsListed } : {}),
    ...(parsed.failures.length > 0
      ? {
          failures: parsed.failures.slice(0, maxFailuresListed).map((f) => ({
            name: f.name,
            message: visibleControlBytes(f.message.slice(0, maxMessageChars), 'message').text,
          })),
        }
      : {}),
    ...(unparsed ? { unparsed: true } : {}),
    ...(signal === undefined ? {} : { signal }),
    output: visible.text,
    ...(visible.note ? { notice: visible.note } : {}),
  };
  return result;
}

/** The last `limit` bytes of `text`, starting on a whole character. */
function tailOf(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  let start = bytes.length - limit;
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return `[… ${start} bytes cut; the tail follows]\n${bytes.subarray(start).toString('utf8')}`;
}
