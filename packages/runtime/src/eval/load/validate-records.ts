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
    errors.push({
      file,
      position: record.position,
      instanceId,
      field,
      message: `${file} ${record.position}${instanceId === null ? '' : ` (${instanceId})`}: ${
        field === null ? 'record' : `field ${field}`
      } ${issue?.message ?? 'is invalid'}`,
    });
  }
  return { valid, errors };
}
