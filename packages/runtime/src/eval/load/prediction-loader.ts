/**
 * Loads SWE-bench predictions (`instance_id`, `model_name_or_path`, `model_patch`) from a JSON
 * array, a JSONL file, or a `preds.json` object keyed by instance id (as `sandkit run`, SWE-agent
 * and mini-swe-agent write it), or makes "gold" predictions from the instances' own patches.
 * @module
 */
import { readText } from './instance-loader.js';
import { type ReadRecordsResult, type RecordError, readRecords } from './read-records.js';
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
  const text = await readText(file, 'predictions');
  const read = readPredsObject(text, file) ?? readRecords(text, file);
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

/**
 * The records of a `preds.json` object (`{ "<instance_id>": { instance_id, model_name_or_path,
 * model_patch }, … }`), each at position `key <id>`; `null` when `text` is not one JSON object whose
 * values are all objects (a JSONL file of one line is a single prediction, not such an object).
 * A value whose `instance_id` differs from its key is an error for that key.
 */
function readPredsObject(text: string, file: string): ReadRecordsResult | null {
  if (!text.trimStart().startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value as Record<string, unknown>);
  if (
    'instance_id' in value ||
    !entries.every(([, v]) => typeof v === 'object' && v !== null && !Array.isArray(v))
  )
    return null;
  const result: ReadRecordsResult = { records: [], errors: [] };
  for (const [key, record] of entries) {
    const id = (record as { instance_id?: unknown }).instance_id;
    if (id !== undefined && id !== key)
      result.errors.push({
        file,
        position: `key ${key}`,
        instanceId: key,
        field: 'instance_id',
        message: `${file} key ${key}: its instance_id is ${JSON.stringify(id)}; in a preds.json object each key is its prediction's instance_id: make them the same`,
      });
    else result.records.push({ position: `key ${key}`, value: { instance_id: key, ...(record as object) } });
  }
  return result;
}
