/**
 * The shared conformance suite every sandbox adapter must pass (local, Docker, E2B).
 * @module
 */
import { type SandboxAdapter, type SandboxHandle, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  createConformanceContext,
  normalizeConformanceOptions,
  type SandboxConformanceOptions,
} from './conformance-context.js';
import { describeCapabilityCases } from './capability-cases.js';
import { describeExecBasicCases } from './exec-basic-cases.js';
import { describeExecCaptureCases } from './exec-capture-cases.js';
import { describeExecKillCases } from './exec-kill-cases.js';
import { describeExecOutputCases } from './exec-output-cases.js';
import { describeFaultCases } from './fault-cases.js';
import { describeFileCases } from './file-cases.js';
import { describeLifecycleCases } from './lifecycle-cases.js';

/**
 * Registers the sandbox conformance suite with vitest (`describe`/`it` from `vitest`, an optional
 * peer of this package). Call it at the top level of a `*.test.ts` file.
 *
 * The suite creates one sandbox for most cases (plus a few of its own for lifecycle cases) through
 * `createAdapter()`, and uses only the `SandboxClient` contract, `handle.workdir` and `destroy()`,
 * with programs found in a plain Debian image (sh, bash, coreutils, findutils, grep; rg and python3
 * when present). Leftover processes are found by scanning `/proc/<pid>/cmdline` inside the sandbox.
 *
 * Every test name starts with a case id in brackets (for example `[exec.timeout-group]`), which
 * `options.skip` accepts.
 *
 * @param name shown in the suite title: `sandbox conformance: <name>`
 * @param createAdapter called once, lazily, before the first sandbox is made
 * @param options `timeoutScale` (default 1) multiplies every time bound; `skip` lists case ids;
 *   `faults` gives the hooks the `fault.*` cases need (`disappear`, `endTransport`)
 * @throws SandkitError `invalid_option` when `timeoutScale` is not a positive finite number.
 */
export function describeSandboxConformance(
  name: string,
  createAdapter: () => SandboxAdapter | Promise<SandboxAdapter>,
  options: SandboxConformanceOptions = {},
): void {
  const normalized = normalizeConformanceOptions(options);
  let adapter: Promise<SandboxAdapter> | undefined;
  const getAdapter = (): Promise<SandboxAdapter> => {
    adapter ??= Promise.resolve(createAdapter());
    return adapter;
  };
  let handle: SandboxHandle | undefined;
  const current = (): SandboxHandle => {
    if (handle === undefined) {
      throw new SandkitError({
        code: SandkitErrorCode.internal,
        message: 'the conformance sandbox was not created; see the error of the suite beforeAll hook',
      });
    }
    return handle;
  };
  const context = createConformanceContext(getAdapter, normalized, current);

  describe(`sandbox conformance: ${name}`, () => {
    beforeAll(async () => {
      handle = await (await getAdapter()).create();
    }, context.scaled(60_000));
    afterAll(async () => {
      await handle?.destroy();
    }, context.scaled(60_000));

    describeExecBasicCases(context);
    describeExecKillCases(context);
    describeExecOutputCases(context);
    describeExecCaptureCases(context);
    describeFileCases(context);
    describeLifecycleCases(context);
    describeCapabilityCases(context);
    describeFaultCases(context);
  });
}
