/**
 * search_files' input and output schemas and their types, apart from the tool so that the argv
 * builder and the pager can use the types without importing the tool.
 * @module
 */
import { z } from 'zod';
import { hasNoNul } from '../workspace/text-checks.js';
import { ignoredSchema } from '../workspace/ignored-schema.js';

/** Input schema of search_files (bounds on every field; see each `.describe()`). */
export const searchFilesInputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .max(10_000)
    .refine(hasNoNul, 'pattern must not contain a NUL byte (no file name or line can hold one)')
    .describe('Regular expression (or literal text with fixedStrings) to search for.'),
  path: z
    .string()
    .max(4096)
    .optional()
    .describe('File or directory to search, relative to the workspace root. Default: the root.'),
  glob: z
    .string()
    .min(1)
    .max(1000)
    .refine(hasNoNul, 'glob must not contain a NUL byte (no path can hold one)')
    .optional()
    .describe('Only search files whose path matches this glob, e.g. "*.ts".'),
  fixedStrings: z.boolean().optional().describe('Treat pattern as literal text, not a regex. Default false.'),
  ignoreCase: z.boolean().optional().describe('Case-insensitive search. Default false.'),
  context: z
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe('Lines of context before and after each match (content mode). Default 0.'),
  outputMode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('What to return. Default "content".'),
  maxMatches: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('Results per page (matches, or files in the other modes). Default 100.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Results to skip: pass nextOffset from a truncated result. Default 0.'),
});

const matchSchema = z.object({
  path: z.string(),
  line: z.number().int().min(1),
  text: z.string(),
  before: z.array(z.string()).optional(),
  after: z.array(z.string()).optional(),
});

/** Output schema of search_files (see createSearchFilesTool for the fields). */
export const searchFilesOutputSchema = z.object({
  matches: z.array(matchSchema),
  files: z.array(z.string()).optional(),
  counts: z.array(z.object({ path: z.string(), count: z.number().int().min(1) })).optional(),
  truncated: z.boolean(),
  nextOffset: z.number().int().min(0).optional(),
  engine: z.enum(['rg', 'grep']),
  ignored: ignoredSchema.optional(),
  warnings: z.array(z.string()).optional(),
  notice: z.string().optional(),
});

/** Input of the search_files tool. */
export type SearchFilesInput = z.input<typeof searchFilesInputSchema>;
/** Result of the search_files tool. */
export type SearchFilesOutput = z.output<typeof searchFilesOutputSchema>;
