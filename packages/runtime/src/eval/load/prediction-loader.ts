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
  /**
   * Valid predictions by instance id. A prediction repeated exactly counts once (a notice); an id
   * with differing predictions has none here, and each repeat is an error.
   */
  predictions: Map<string, SweBenchPrediction>;
  errors: RecordError[];
  /** What was noticed but is no error (exact repeats), one sentence each. */
  notices: string[];
}

/**
 * Reads and validates predictions. One bad record never stops the others.
 * @throws SandkitError `invalid_option` when the file cannot be read.
 */
export async function loadPredictions(file: string): Promise<LoadedPredictions> {
  const read = readRecords(await readText(file, 'predictions'), file);
  const { valid, errors } = validateRecords(read.records, sweBenchPredictionSchema, file);
  const predictions = new Map<string, SweBenchPrediction>();
  const positions = new Map<string, string>();
  const repeated = new Set<string>();
  const notices: string[] = [];
  for (const { position, value } of valid) {
    const id = value.instance_id;
    const earlier = predictions.get(id);
    if (earlier === undefined && !repeated.has(id)) {
      predictions.set(id, value);
      positions.set(id, position);
      continue;
    }
    if (earlier !== undefined && JSON.stringify(earlier) === JSON.stringify(value)) {
      notices.push(
        `${file} ${position}: the prediction for ${id} repeats ${positions.get(id)} exactly; it counts once`,
      );
      continue;
    }
    repeated.add(id);
    predictions.delete(id);
    errors.push({
      file,
      position,
      instanceId: id,
      field: 'instance_id',
      message: `${file} ${position}: a second, different prediction for ${id} (the first is at ${positions.get(id)}); neither is used: keep one prediction per instance`,
    });
  }
  return { predictions, errors: [...read.errors, ...errors], notices };
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
