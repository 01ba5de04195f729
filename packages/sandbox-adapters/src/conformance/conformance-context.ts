/**
 * What every conformance case file receives: the shared sandbox, time scaling, the skip list,
 * and small helpers that use only the SandboxClient contract.
 * @module
 */
import { randomBytes } from 'node:crypto';
import {
  type ExecResult,
  type SandboxAdapter,
  type SandboxClient,
  SandboxError,
  type SandboxHandle,
  SandkitError,
  SandkitErrorCode,
} from '@sandkit/core';
import { expect, it, type TestContext } from 'vitest';

/** Options of `describeSandboxConformance`. */
export interface SandboxConformanceOptions {
  /**
   * Multiplies every time bound of the suite (test timeouts, "returns within" limits, timeouts
   * given to `exec`). Use 2–4 for a remote or slow vendor.
   * @default 1
   */
  timeoutScale?: number;
  /**
   * Case ids to register as skipped (each test name starts with its id in brackets, for example
   * `[exec.stdin-closed]`). A skipped case is a failure under CI, so use it only while porting.
   * @default []
   */
  skip?: readonly string[];
  /** Vendor hooks that inject faults for the `fault.*` cases (issue 13). */
  faults?: ConformanceFaults;
}

/**
 * Hooks that make a sandbox fail the way its vendor can. A case whose hook is absent is skipped with
 * the reason as the skip note (`needs faults.disappear: …`, shown by vitest's reporters), never
 * failed. Provide one in the options of `describeSandboxConformance`:
 * ```ts
 * describeSandboxConformance('my-vendor', () => createMyAdapter(), {
 *   faults: {
 *     // kill the sandbox through the vendor's API, behind the adapter's back
 *     disappear: async (handle) => { await myVendorApi.kill(handle.id); },
 *     // drop the stream the adapter follows a command through; a no-op if it has none
 *     endTransport: async (handle) => { myAdapterInternals(handle).dropStreams(); },
 *   },
 * });
 * ```
 * Under CI a skipped case fails the run (`.ci/check-skipped.mjs`), so sandkit's own adapters give both.
 */
export interface ConformanceFaults {
  /**
   * Makes the sandbox disappear behind the adapter's back (the vendor expired or killed it, the
   * container was removed, the directory deleted); every later client call must throw `sandbox_gone`.
   */
  disappear?(handle: SandboxHandle): Promise<void>;
  /**
   * Ends the channel the adapter watches a running command through (a vendor deadline, a dropped
   * connection) while the command keeps running. An adapter without such a channel passes a no-op.
   */
  endTransport?(handle: SandboxHandle): Promise<void>;
}

/** Normalised options plus the sandbox shared by most cases. */
export interface ConformanceContext {
  readonly adapter: () => Promise<SandboxAdapter>;
  /** The fault hooks given in the options (empty when none). */
  readonly faults: ConformanceFaults;
  /** The sandbox shared by the suite (made in `beforeAll`). */
  handle(): SandboxHandle;
  client(): SandboxClient;
  /** `ms` × timeoutScale. */
  scaled(ms: number): number;
  /** Registers a case, honouring `skip`; `timeoutMs` is scaled. */
  test(id: string, title: string, body: (context: TestContext) => Promise<void>, timeoutMs?: number): void;
}

/**
 * Fills the defaults of {@link SandboxConformanceOptions}.
 * @throws SandkitError `invalid_option` when `timeoutScale` is not a positive finite number.
 */
export function normalizeConformanceOptions(
  options: SandboxConformanceOptions,
): Required<SandboxConformanceOptions> {
  const timeoutScale = options.timeoutScale ?? 1;
  if (!(timeoutScale > 0) || !Number.isFinite(timeoutScale)) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `timeoutScale must be a positive finite number, got ${timeoutScale}`,
    });
  }
  return { timeoutScale, skip: options.skip ?? [], faults: options.faults ?? {} };
}

/** Builds the context; `handle` is filled by the suite's `beforeAll`. */
export function createConformanceContext(
  adapter: () => Promise<SandboxAdapter>,
  options: Required<SandboxConformanceOptions>,
  current: () => SandboxHandle,
): ConformanceContext {
  const scaled = (ms: number): number => Math.round(ms * options.timeoutScale);
  return {
    adapter,
    faults: options.faults,
    handle: current,
    client: () => current().client,
    scaled,
    test(id, title, body, timeoutMs = 20_000) {
      const name = `[${id}] ${title}`;
      if (options.skip.includes(id)) it.skip(name, body);
      else it(name, (testContext) => body(testContext), scaled(timeoutMs));
    },
  };
}

/** A fresh marker that a command line can carry, and a grep pattern that finds it but not itself. */
export function processMarker(): { marker: string; pattern: string } {
  const marker = `sandkitmark${randomBytes(6).toString('hex')}`;
  return { marker, pattern: `[${marker[0]}]${marker.slice(1)}` };
}

/**
 * Pids of live processes whose command line holds the marker, found by scanning `/proc` inside the
 * sandbox with sh and grep (pgrep may be absent). Zombies have an empty cmdline and do not count.
 */
export async function processesWithMarker(client: SandboxClient, pattern: string): Promise<string[]> {
  const result = await client.exec(
    `for f in $(grep -l -a -e '${pattern}' /proc/[0-9]*/cmdline 2>/dev/null); do d=\${f%/cmdline}; echo "\${d#/proc/}"; done; true`,
    { timeoutMs: 20_000 },
  );
  expect(result.exitCode).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

/** Polls until no process carries the marker, up to `withinMs`; returns what is left. */
export async function waitForNoProcesses(
  client: SandboxClient,
  pattern: string,
  withinMs: number,
): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = await processesWithMarker(client, pattern);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Asserts that `promise` rejects with a SandboxError carrying `code`. */
export async function expectSandboxError(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected a SandboxError with code ${code}`).toBeDefined();
  expect(SandboxError.isInstance(error), `expected a SandboxError, got ${String(error)}`).toBe(true);
  expect((error as SandboxError).code).toBe(code);
}

/** `true` when `program` is on the sandbox's PATH. */
export async function hasProgram(client: SandboxClient, program: string): Promise<boolean> {
  const result = await client.exec(`command -v ${program} >/dev/null 2>&1`);
  return result.exitCode === 0;
}

/** A readable summary of a result for assertion messages. */
export function describeResult(result: ExecResult): string {
  const { stdout, stderr, ...rest } = result;
  return JSON.stringify({ ...rest, stdout: stdout.slice(0, 200), stderr: stderr.slice(0, 200) });
}
