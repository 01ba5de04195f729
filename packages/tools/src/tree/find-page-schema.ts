/**
 * The paging fields that end the results of find_files and list_files (see run-find-page.ts).
 * @module
 */
import { z } from 'zod';
import { ignoredSchema } from '../workspace/ignored-schema.js';

/**
 * Zod shape of the fields after a find_files / list_files result's records: `truncated`,
 * `nextOffset` (present when truncated), `ignored` (paths an ignore rule skipped), `warnings`
 * (find's stderr lines). Spread it last into the tool's output `z.object`.
 */
export const findPageOutputFields = {
  truncated: z.boolean(),
  nextOffset: z.number().int().min(0).optional(),
  ignored: ignoredSchema.optional(),
  warnings: z.array(z.string()).optional(),
};
