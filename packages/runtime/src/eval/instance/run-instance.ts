/**
 * Evaluates one prediction on one instance in a sandbox of its own: check out `base_commit`,
 * run `setup_cmd`, apply the model patch, restore and patch the test files, run the tests, parse
 * every test's status, grade, and write `patch.diff`, `test_output.txt`, `eval.log` and
 * `report.json` into the instance's output directory. The sandbox is destroyed on every path
 * (never reused: each instance starts from a fresh one).
 * @module
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError, type SandboxSession, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { EvalLog } from './eval-log.js';
import {
  type ErrorKind,
  type InstanceResult,
  initialResult,
  isInfraError,
  type SweBenchInstanceReport,
} from './eval-result.js';
import { StepError } from './eval-step-error.js';
import { evaluate, writeReport } from './evaluate-instance.js';
import type { InstanceContext } from './instance-context.js';

/**
 * Runs the instance. Returns its result, or `null` when `signal` aborted it (nothing is recorded
 * then, so a resumed run evaluates it again).
 */
export async function runInstance(options: InstanceContext): Promise<InstanceResult | null> {
  const { instance, prediction, outDir } = options;
  const started = performance.now();
  const log = new EvalLog();
  const patch = prediction.model_patch;
  const patchExists = patch !== null && patch.trim() !== '';
  // the sandbox is asked for before the host-side files are prepared, so that its create overlaps
  // them and a quota slot freed by this worker's previous instance is taken again at once
  const acquiring = patchExists ? acquireSandbox(options) : undefined;
  // handled below (awaited, or released on a failed preparation); this only keeps a rejection
  // that arrives while the files are written from counting as unhandled
  acquiring?.catch(() => undefined);
  // when the tree is known to go in as an archive, the host's `git archive` overlaps the create too
  const archiveFirst =
    options.checkoutMode === 'archive' ||
    (options.checkoutMode === 'in-place' && options.treelessImage?.known() === true);
  const archive =
    patchExists && archiveFirst ? options.store.archive(instance.repo, instance.base_commit) : undefined;
  archive?.catch(() => undefined); // awaited by the checkout step; unused if the acquire fails
  const ctx: InstanceContext = archive === undefined ? options : { ...options, archive };
  try {
    await rm(outDir, { recursive: true, force: true }); // a rerun (resume) starts from a clean directory
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, 'patch.diff'), patch ?? '');
  } catch (error) {
    const acquired = await acquiring?.catch(() => undefined);
    if (acquired !== undefined) ctx.trackRelease(destroySession(acquired.session));
    throw error;
  }
  const result = initialResult(instance.instance_id, {
    model_name_or_path: prediction.model_name_or_path,
    infra_error: false,
    f2p: { success: 0, total: instance.FAIL_TO_PASS.length },
    p2p: { success: 0, total: instance.PASS_TO_PASS.length },
    finished_at: '',
  });
  const report: SweBenchInstanceReport[string] = {
    patch_is_None: patch === null,
    patch_exists: patchExists,
    patch_successfully_applied: false,
    resolved: false,
  };
  let session: SandboxSession | undefined;
  let released = false;
  /** Hands the sandbox back once no more calls go into it; the caller may then start its next instance. */
  const sandboxDone = (): void => {
    if (session === undefined || released) return;
    released = true;
    ctx.trackRelease(destroySession(session));
    ctx.onSandboxDone?.();
  };
  try {
    if (!report.patch_exists) {
      result.status = 'empty_patch';
      log.note('the prediction has no patch: nothing to evaluate');
      await writeReport(outDir, instance.instance_id, report);
    } else {
      const acquired = await acquiring!;
      session = acquired.session;
      result.acquire_ms = acquired.ms;
      log.note(
        `sandbox ${session.id} from ${session.providerName}, workdir ${session.workdir}, acquired in ${acquired.ms} ms`,
      );
      await evaluate(ctx, session, log, result, report, started, sandboxDone);
    }
  } catch (error) {
    if (ctx.signal.aborted) {
      log.note('aborted (interrupt): not recorded, a resumed run evaluates it again');
      await writeFile(join(outDir, 'eval.log'), log.text());
      return null;
    }
    const kind: ErrorKind =
      error instanceof StepError
        ? error.kind
        : SandboxError.isInstance(error)
          ? 'sandbox'
          : SandkitError.isInstance(error) && error.code === SandkitErrorCode.notFound
            ? 'repo'
            : SandkitError.isInstance(error) && error.code === SandkitErrorCode.invalidRecord
              ? 'invalid_record'
              : SandkitError.isInstance(error) && error.code === SandkitErrorCode.invalidOption
                ? 'sandbox'
                : 'internal';
    result.status = 'error';
    result.error_kind = kind;
    result.infra_error = isInfraError(kind);
    result.error = (error as Error).message;
    if (kind === 'sandbox' && SandkitError.isInstance(error)) result.error_code = error.code;
    log.note(`error (${kind}): ${result.error}`);
    if (kind === 'patch_apply') await writeReport(outDir, instance.instance_id, report);
  } finally {
    // destroyed while the worker moves on to its next instance; runEval awaits every release
    if (session !== undefined && !released) {
      released = true;
      ctx.trackRelease(destroySession(session));
    }
  }
  result.duration_ms = Math.round(performance.now() - started);
  result.finished_at = new Date().toISOString();
  log.note(
    `finished: ${result.status}${result.error_kind ? ` (${result.error_kind})` : ''} in ${result.duration_ms} ms`,
  );
  await writeFile(join(outDir, 'eval.log'), log.text());
  return result;
}

/** Takes the instance's sandbox from its provider; `ms` is how long that took. */
async function acquireSandbox(ctx: InstanceContext): Promise<{ session: SandboxSession; ms: number }> {
  const started = performance.now();
  const session = await (await ctx.provider())
    .acquire({ signal: ctx.signal, expectedDurationMs: ctx.timeoutMs })
    .catch((error: unknown) => {
      if (!SandboxError.isInstance(error) || error.code !== SandkitErrorCode.poolExhausted) throw error;
      // the pool's message names its API options; the run's are the eval's flags
      throw new SandboxError({
        code: SandkitErrorCode.poolExhausted,
        message: `no sandbox became free within the instance's --timeout (${ctx.timeoutMs / 1000} s): every one of --max-sandboxes was in use; raise --max-sandboxes (your vendor's quota allowing) or --timeout`,
        cause: error,
        details: error.details,
      });
    });
  return { session, ms: Math.round(performance.now() - started) };
}

/** Releases `session` with `destroy: true`; a failure is a process warning (the pool has reported it). */
function destroySession(session: SandboxSession): Promise<void> {
  const { id } = session;
  return session.release({ destroy: true }).catch((error: unknown) => {
    process.emitWarning(`sandkit eval: destroying sandbox ${id} failed: ${(error as Error).message}`);
  });
}
