/**
 * What the harness records per instance: the `results.jsonl` line (sandkit's own format, one whole
 * line per finished instance) and the `report.json` in SWE-bench's shape.
 * @module
 */

import type { OfficialAgreement } from '../grade/official-agreement.js';
import type { PatchMethod } from './apply-patch.js';
import type { ErrorKind } from './error-kind.js';
import type { PrefixMatch, TestsStatus } from './grade.js';

/**
 * Verdict of one instance. `error`: it could not be graded (the model patch did not apply, the
 * test patch did not apply, the sandbox or repository failed, the instance timed out).
 * `empty_patch`: the prediction had no patch (SWE-bench's `empty_patch_ids`); nothing ran.
 */
export type InstanceStatus = 'resolved' | 'unresolved' | 'error' | 'empty_patch';

export type { ErrorKind } from './error-kind.js';

/**
 * What a `sandkit eval` verdict was made from, so that `--resume` keeps it only for the same
 * inputs (see `report/resume-inputs.ts`). Absent in records written before it was recorded, and
 * in `sandkit grade`'s.
 */
export interface RunInputs {
  /** SHA-256 (hex) of the prediction's `model_patch` as UTF-8; `null` for a `null` patch. */
  model_patch_sha256: string | null;
  /** SHA-256 (hex) of the dataset row (its JSON with keys sorted). */
  instance_sha256: string;
  /** The run options that can change a verdict. */
  options: VerdictOptions;
}

/**
 * The `sandkit eval` options that can change a verdict: the patch policy, the per-instance time
 * budget (tests cut at the deadline), and where the tests run (sandbox kind, image or image
 * naming). Workers, sandbox limits, retries, schedule and checkout mode are left out: they change
 * how fast a run goes, not what an instance's tests give.
 */
export interface VerdictOptions {
  patch_policy: string;
  timeout_seconds: number;
  sandbox: string;
  /** `--image`, or `null` for the official image names. */
  image: string | null;
  /** The official image naming (`namespace/tag/arch`), as JSON; unused with `image` or the local sandbox. */
  image_naming: string;
}

/** One line of `results.jsonl`. */
export interface InstanceResult {
  instance_id: string;
  model_name_or_path: string | null;
  status: InstanceStatus;
  /** Present when `status` is `error`. */
  error_kind?: ErrorKind;
  /** Present when `status` is `error`: what failed, and what to do. */
  error?: string;
  /** The SandboxError code behind a `sandbox` error (for example `sandbox_gone`). */
  error_code?: string;
  /** Times the instance ran again on a fresh sandbox because its sandbox failed (expired, gone, did not start). */
  infra_retries?: number;
  /** `true` for errors that are neither the model's doing nor the dataset's (everything but `patch_apply` and `dataset`). */
  infra_error: boolean;
  /** Program that applied the model patch, `null` when it did not apply or never ran. */
  patch_method: PatchMethod | null;
  /** Real UTF-8 paths the model patch touched. */
  patch_files: string[];
  /** Binary sections without data that were skipped. */
  skipped_binary_files: string[];
  /** Hunks that `patch` placed at an offset (never with fuzz). */
  patch_offsets: string[];
  /** Listed tests absent from the log (counted as failures). */
  missing_tests: string[];
  /** Listed ids that only match logged ids by prefix (counted as failures). */
  prefix_matches: PrefixMatch[];
  /** Official ids that several logged ids collapsed into (graded with the worst status). */
  id_collisions?: Array<{ official: string; from: string[] }>;
  /** FAIL_TO_PASS tests that were skipped: failures for sandkit, neither list for the official grader. */
  skipped_fail_to_pass?: string[];
  /** `sandkit grade`: the official report.json beside the log, and whether sandkit agrees. */
  official?: OfficialAgreement;
  /**
   * `sandkit grade`: what it noticed about the files beside the log, each saying what to do (a
   * report.json that is not JSON or is sandkit's own, a repository graded with a fallback
   * parser, …); shown in summary.md's note column.
   */
  grade_notes?: string[];
  /**
   * `sandkit grade`: the absolute path of the directory holding the log it graded
   * (`test_output.txt`, with `patch.diff` and the official `report.json` beside it), so that
   * `sandkit view` can show them.
   */
  log_dir?: string;
  /** `true` when the test command hit the instance's deadline (graded on the output so far). */
  tests_timed_out: boolean;
  /** FAIL_TO_PASS / PASS_TO_PASS success counts, for the summary. */
  f2p: { success: number; total: number };
  p2p: { success: number; total: number };
  /** Wall time of the instance (its last attempt), in ms: waiting for the sandbox, checkout, patches, tests. */
  duration_ms: number;
  /**
   * Of `duration_ms`, the time the instance waited for its sandbox (a free slot under
   * `--max-sandboxes`, then the vendor's create), in ms; absent when it took none.
   */
  acquire_ms?: number;
  /**
   * Of `duration_ms`, the time the evaluation script ran in the sandbox (checkout, setup, patches,
   * tests; every run of it in the last attempt), as the adapter measured it, in ms; absent when it
   * never ran. What `--schedule longest-first` orders by: the instance's own time, without the
   * create, the uploads and the host's grading, which vary with the vendor's and the host's load.
   */
  script_ms?: number;
  finished_at: string;
  /** `sandkit eval`: what the verdict was made from, checked by `--resume`; see {@link RunInputs}. */
  run_inputs?: RunInputs;
}

/**
 * `report.json` of one instance: SWE-bench's `get_eval_report` shape, plus `patch_applied_with`
 * (which step of the patch chain applied the model patch; sandkit's, absent when it did not apply).
 */
export type SweBenchInstanceReport = Record<
  string,
  {
    patch_is_None: boolean;
    patch_exists: boolean;
    patch_successfully_applied: boolean;
    resolved: boolean;
    patch_applied_with?: PatchMethod;
    tests_status?: TestsStatus;
  }
>;

/**
 * A result before anything is known: `status: 'error'`, `infra_error: true`, no model, nothing
 * applied or graded, zero test totals, `finished_at` now; `fields` replace any of these (keys keep
 * this order in `results.jsonl`, added ones come last).
 * @param instanceId the instance's `instance_id`
 */
export function initialResult(instanceId: string, fields: Partial<InstanceResult> = {}): InstanceResult {
  return {
    instance_id: instanceId,
    model_name_or_path: null,
    status: 'error',
    infra_error: true,
    patch_method: null,
    patch_files: [],
    skipped_binary_files: [],
    patch_offsets: [],
    missing_tests: [],
    prefix_matches: [],
    tests_timed_out: false,
    f2p: { success: 0, total: 0 },
    p2p: { success: 0, total: 0 },
    duration_ms: 0,
    finished_at: new Date().toISOString(),
    ...fields,
  };
}

/** Kinds that are neither the model's doing nor the dataset's (a bad row skipped by `--skip-invalid`). */
export function isInfraError(kind: ErrorKind): boolean {
  return kind !== 'patch_apply' && kind !== 'dataset';
}
