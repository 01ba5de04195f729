/**
 * Loads SWE-bench predictions (`instance_id`, `model_name_or_path`, `model_patch`) from a JSON or
 * JSONL file, or makes "gold" predictions from the instances' own patches.
 * @module
 */
import { readText } from './instance-loader.js';
import { type RecordError, readRecords } from './read-records.js';
import {
  type SweBenchInstance,
  type SweBenchPrediction,
  sweBenchPredictionSchema,
} from './swe-bench-instance.js';
import { validateRecords } from './validate-records.js';

/** What {@link loadPredictions} found. */
export interface LoadedPredictions {
  /** Valid predictions by instance id; a repeated id keeps the last one (a later run overrides). */
  predictions: Map<string, SweBenchPrediction>;
  errors: RecordError[];
}

/**
 * Reads and validates predictions. One bad record never stops the others.
 * @throws SandkitError `invalid_option` when the file cannot be read.
 */
export async function loadPredictions(file: string): Promise<LoadedPredictions> {
  const read = readRecords(await readText(file, 'predictions'), file);
  const { valid, errors } = validateRecords(read.records, sweBenchPredictionSchema, file);
  const predictions = new Map<string, SweBenchPrediction>();
  for (const { value } of valid) predictions.set(value.instance_id, value);
  return { predictions, errors: [...read.errors, ...errors] };
}

/** SWE-bench's name for gold predictions' `model_name_or_path`. */
export const goldModelName = 'gold';

/** One prediction per instance whose `model_patch` is the instance's own `patch`. */
export function goldPredictions(instances: readonly SweBenchInstance[]): Map<string, SweBenchPrediction> {
  return new Map(
    instances.map((instance) => [
      instance.instance_id,
      { instance_id: instance.instance_id, model_name_or_path: goldModelName, model_patch: instance.patch },
    ]),
  );
}
