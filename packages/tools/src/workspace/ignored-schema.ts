import { z } from 'zod';

/**
 * The `ignored` field of search_files, find_files and list_files: how many paths an ignore rule
 * skipped (for search_files: files that hold a match), and the top-most of them (a path inside a
 * skipped directory is not named again, at most 20) with the rule, `SOURCE:LINE:PATTERN` as
 * `git check-ignore -v` prints it.
 */
export const ignoredSchema = z.object({
  count: z.number().int().positive(),
  paths: z.array(z.object({ path: z.string(), rule: z.string() })),
});
