/**
 * The key a cached instance time is stored under: what decides how long an instance's evaluation
 * script runs, and nothing that changes between models. A SHA-256 (hex) of:
 * - the instance's record as loaded (id, repository, base commit, test patch, FAIL_TO_PASS /
 *   PASS_TO_PASS, version, image, …): another dataset's version of the same id, or the same dataset
 *   edited, is another key;
 * - its row of the specification table (test command, environment activation, …), as JSON: a
 *   sandkit release that runs the tests differently does not reuse the old times;
 * - the sandbox it runs on: the vendor and image name (`docker:<image>`, `e2b:<template>`),
 *   `local`, or `adapter:<name>` for a ready adapter; a faster machine is another key.
 *
 * The prediction is not part of the key: a run's tests take about as long whichever model wrote
 * the patch, and that is what lets a first model's run order the next one's.
 * @module
 */
import { createHash } from 'node:crypto';
import type { NormalizedEvalOptions } from '../eval-options.js';
import type { EvalSandboxes } from '../eval-sandboxes.js';
import type { SweBenchInstance } from '../load/swe-bench-instance.js';
import { specForInstance } from '../specs/spec-for.js';

/**
 * The key of `instance`'s time on `sandbox` (for example `docker:swebench/sweb.eval.x86_64.x:latest`,
 * `local`, `adapter:simulated-vendor`): 64 hex characters.
 */
export function instanceTimingKey(instance: SweBenchInstance, sandbox: string): string {
  const spec = specForInstance(instance) ?? null;
  return createHash('sha256').update(JSON.stringify({ instance, spec, sandbox })).digest('hex');
}

/**
 * The sandbox part of an instance's key: `adapter:<name>` for a ready adapter, `local`, or
 * `<vendor>:<image>` (the image {@link EvalSandboxes.imageFor} gives the instance).
 */
export function timingSandboxName(
  opts: Pick<NormalizedEvalOptions, 'adapter' | 'sandbox'>,
  sandboxes: Pick<EvalSandboxes, 'imageFor'>,
  instance: SweBenchInstance,
): string {
  if (opts.adapter !== null) return `adapter:${opts.adapter.name}`;
  if (opts.sandbox === 'local') return 'local';
  try {
    return `${opts.sandbox}:${sandboxes.imageFor(instance)}`;
  } catch (error) {
    // a malformed image name: the instance's acquire fails with it and records no time
    return `${opts.sandbox}:unnamed (${(error as Error).message})`;
  }
}
