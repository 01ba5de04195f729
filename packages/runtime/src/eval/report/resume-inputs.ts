/**
 * `--resume`'s check that the kept verdicts in `results.jsonl` were made from this run's inputs:
 * per instance its prediction (`model_name_or_path` and a hash of `model_patch`), its dataset row
 * (a hash) and the run options that can change a verdict ({@link VerdictOptions}). Without it, a
 * resume with another model's predictions kept the first model's verdicts and scored them as the
 * second's (R06).
 * @module
 */
import { createHash } from 'node:crypto';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { NormalizedEvalOptions } from '../eval-options.js';
import type { InstanceResult, RunInputs, VerdictOptions } from '../instance/eval-result.js';
import type { SweBenchInstance, SweBenchPrediction } from '../load/swe-bench-instance.js';

/** The {@link VerdictOptions} of a run. */
export function verdictOptions(opts: NormalizedEvalOptions): VerdictOptions {
  return {
    patch_policy: opts.patchPolicy,
    timeout_seconds: opts.timeoutMs / 1000,
    sandbox: opts.sandbox,
    image: opts.image,
    image_naming: JSON.stringify(opts.naming),
  };
}

/** What `instance`'s verdict under `prediction` and `options` is made from. */
export function runInputsOf(
  instance: SweBenchInstance,
  prediction: SweBenchPrediction | undefined,
  options: VerdictOptions,
): RunInputs {
  const patch = prediction?.model_patch ?? null;
  return {
    model_patch_sha256: patch === null ? null : sha256(patch),
    instance_sha256: sha256(sortedJson(instance)),
    options,
  };
}

/** What {@link checkResumeInputs} found among the kept records. */
export interface ResumeInputsCheck {
  /** Ids of kept records written before run inputs were recorded: kept unchecked. */
  unchecked: string[];
  /** Ids of kept records outside this run's instances (not in the dataset, or not in `--instance-ids`): dropped. */
  outside: string[];
}

/**
 * Compares each kept record with this run's inputs.
 * @param kept the records `--resume` would keep, by id
 * @param runIds this run's instance ids (the dataset, narrowed by `--instance-ids`)
 * @throws SandkitError `invalid_option` naming each instance whose record was made from another
 *   model, patch, dataset row or verdict option (up to 5, and how many more), and how to proceed
 *   (a new `--out`, or remove `results.jsonl` there to run every instance again)
 */
export function checkResumeInputs(
  kept: ReadonlyMap<string, InstanceResult>,
  run: {
    out: string;
    runIds: readonly string[];
    instances: ReadonlyMap<string, SweBenchInstance>;
    predictions: ReadonlyMap<string, SweBenchPrediction>;
    options: VerdictOptions;
  },
): ResumeInputsCheck {
  const runIds = new Set(run.runIds);
  const check: ResumeInputsCheck = { unchecked: [], outside: [] };
  const differs: string[] = [];
  for (const [id, record] of kept) {
    if (!runIds.has(id)) {
      check.outside.push(id);
      continue;
    }
    const instance = run.instances.get(id);
    const prediction = run.predictions.get(id);
    if (instance === undefined) continue; // an invalid dataset row: its error record replaces it
    if (prediction === undefined) {
      differs.push(
        `${id}: kept verdict of ${record.model_name_or_path}, but this run has no prediction for it`,
      );
      continue;
    }
    // a record of an older sandkit, or written by hand, may lack the model name: checked as far as it goes
    const named = typeof record.model_name_or_path === 'string' || record.run_inputs !== undefined;
    if (named && record.model_name_or_path !== prediction.model_name_or_path) {
      differs.push(
        `${id}: kept verdict of model ${JSON.stringify(record.model_name_or_path)}, this run's prediction is ${JSON.stringify(prediction.model_name_or_path)}`,
      );
      continue;
    }
    if (record.run_inputs === undefined) {
      check.unchecked.push(id);
      continue;
    }
    const now = runInputsOf(instance, prediction, run.options);
    const what: string[] = [];
    if (record.run_inputs.model_patch_sha256 !== now.model_patch_sha256) what.push('model_patch');
    if (record.run_inputs.instance_sha256 !== now.instance_sha256) what.push('dataset row');
    for (const key of Object.keys(now.options) as Array<keyof VerdictOptions>)
      if (record.run_inputs.options?.[key] !== now.options[key])
        what.push(
          `${key} (${String(record.run_inputs.options?.[key])} then, ${String(now.options[key])} now)`,
        );
    if (what.length > 0) differs.push(`${id}: another ${what.join(', ')}`);
  }
  if (differs.length > 0) {
    const shown = differs.slice(0, 5).join('; ');
    const more = differs.length > 5 ? `; and ${differs.length - 5} more` : '';
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--resume: ${differs.length === 1 ? '1 kept result was' : `${differs.length} kept results were`} made from other inputs than this run's (${shown}${more}); resuming would score them as this run's. Nothing was changed: give a new --out for these inputs, or remove results.jsonl from ${run.out} to run every instance again`,
      details: { out: run.out, differs },
    });
  }
  return check;
}

/** SHA-256 (hex) of `text` as UTF-8. */
function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** JSON of `value` with object keys sorted at every level (the same row from JSONL or parquet hashes the same). */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
