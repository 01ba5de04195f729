import type { z } from 'zod';
import { peekInstanceId, type RawRecord, type RecordError } from './read-records.js';

/**
 * Validates raw records against `schema`; each invalid record becomes one {@link RecordError}
 * naming its position, its `instance_id` when readable, and the first offending field.
 */
export function validateRecords<S extends z.ZodType>(
  records: readonly RawRecord[],
  schema: S,
  file: string,
): { valid: Array<{ position: string; value: z.output<S> }>; errors: RecordError[] } {
  const valid: Array<{ position: string; value: z.output<S> }> = [];
  const errors: RecordError[] = [];
  for (const record of records) {
    const result = schema.safeParse(record.value);
    if (result.success) {
      valid.push({ position: record.position, value: result.data });
      continue;
    }
    const issue = result.error.issues[0];
    const field = issue !== undefined && issue.path.length > 0 ? issue.path.join('.') : null;
    const instanceId = peekInstanceId(record.value);
    const missing = field !== null && issue !== undefined && isMissing(record.value, issue.path);
    errors.push({
      file,
      position: record.position,
      instanceId,
      field,
      message: `${file} ${record.position}${instanceId === null ? '' : ` (${instanceId})`}: ${
        missing
          ? `${field} is missing: ${missingFieldHint(field as string)}`
          : `${field === null ? 'record' : `field ${field}`} ${issue?.message ?? 'is invalid'}`
      }`,
    });
  }
  return { valid, errors };
}

/** `true` when the record has no value at `path` (the key is absent, or `undefined`). */
function isMissing(value: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return true;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current === undefined;
}

/** What to write in an absent field, said in the error. */
function missingFieldHint(field: string): string {
  if (field === 'FAIL_TO_PASS' || field === 'PASS_TO_PASS')
    return 'give a list of test ids (a JSON array or a JSON-encoded string; [] for none)';
  if (field === 'instance_id') return 'give the row its SWE-bench instance id';
  return 'add it to the record';
}
