/**
 * What a run does with the records it could not use: refuse them before anything runs (SWE-bench's
 * harness fails on a bad dataset too), and name predictions for instances the dataset lacks.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { RecordError } from './read-records.js';
import type { SweBenchPrediction } from './swe-bench-instance.js';

/** Errors listed in {@link invalidRecordsError}'s message; the rest are counted. */
const shownErrors = 10;

/**
 * The usage error refusing a dataset or predictions file with invalid records, each named by its
 * file, line (or index) and field, and the flag that skips them instead.
 * @param errors at least one
 * @param skipFlag the flag that counts them as dataset errors and runs the rest
 */
export function invalidRecordsError(
  errors: readonly RecordError[],
  skipFlag = '--skip-invalid',
): SandkitError {
  const shown = errors.slice(0, shownErrors).map((e) => `  ${e.message}`);
  const more = errors.length > shownErrors ? [`  … and ${errors.length - shownErrors} more`] : [];
  return new SandkitError({
    code: SandkitErrorCode.invalidOption,
    message: [
      `${errors.length === 1 ? '1 record' : `${errors.length} records`} cannot be used, so nothing ran:`,
      ...shown,
      ...more,
      `fix ${errors.length === 1 ? 'it' : 'them'}, or pass ${skipFlag} to run the rest and count ${errors.length === 1 ? 'it' : 'them'} as dataset errors (in the total, never resolved)`,
    ].join('\n'),
    details: { invalidRecords: errors.length },
  });
}

/**
 * One record error per prediction whose `instance_id` is not in the dataset (a typo turns into
 * "no prediction" for the real instance otherwise); SWE-bench's harness raises "Some prediction
 * IDs not found in dataset!" for them.
 * @param datasetIds every id of the dataset (before `--instance-ids`)
 */
export function unknownPredictionErrors(
  predictions: ReadonlyMap<string, SweBenchPrediction>,
  datasetIds: ReadonlySet<string>,
  file: string,
): RecordError[] {
  return [...predictions.keys()]
    .filter((id) => !datasetIds.has(id))
    .map((id) => ({
      file,
      position: 'instance_id',
      instanceId: id,
      field: 'instance_id',
      message: `${file}: a prediction for ${id}, which is not in the dataset: not used (a typo of another instance's id?)`,
    }));
}
