/**
 * read_file's contract with the model: limits, description, input and output schemas.
 * @module
 */
import { z } from 'zod';

/** Limits of read_file. */
export const readFileLimits = {
  /** Lines per call. */
  maxLines: 2000,
  /** Bytes of text per call (also never more than the tool's `maxOutputBytes`). */
  maxBytes: 256 * 1024,
  /** Characters of one line before it is clipped. */
  maxLineChars: 2000,
  /** Bytes of an image or PDF returned as media. */
  maxMediaBytes: 3.5 * 1024 * 1024,
  /** Room kept in `maxOutputBytes` for the status line after the text. */
  statusReserve: 600,
} as const;

/** The read_file description for the model, stating the effective text cap `textBudget` (bytes). */
export const describeReadFile = (textBudget: number): string => `Read a file in the workspace.
Text comes back with line numbers ("N<TAB>line"); at most ${readFileLimits.maxLines} lines and ${Math.floor(textBudget / 1024)} KiB per call, and a line longer than ${readFileLimits.maxLineChars} characters is clipped with a marker "[line N truncated: showed X of Y bytes; continue with byteOffset=Z]".
- offset: 1-based line to start at; limit: number of lines. Omit both to read from the start.
- When the result is cut it has nextOffset and nextByteOffset: pass BOTH back (offset=nextOffset, byteOffset=nextByteOffset) to continue without rescanning the file. To see the rest of a clipped line, pass offset=N and the marker's byteOffset.
- totalLines is null when unknown (a far window of a large file is read without counting the whole file).
- revision identifies the file content: pass it as expectedRevision to edit_file, or to write_file when you replace the file, so a change made since your read is not overwritten.
- lineEnding says "crlf" for Windows line endings; text is shown without the "\\r", and edit_file matches it either way.
- Images (png, jpeg, gif, webp) and PDF files come back as media (up to 3.5 MiB). Other binary files are described (size, type), not dumped; read their bytes with encoding="base64" (byteOffset pages through them).
- Bytes that are not valid UTF-8 are shown as U+FFFD with a notice; edit_file cannot match those bytes, so keep them outside oldText.
Errors: "not_found" (check the path with list_files or find_files), "is_directory" (use list_files), "outside_root" (use a path inside the workspace), offset past the end (the message gives the line count).`;

/** Input of read_file. */
export const readFileInputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace root (or absolute inside it).'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('1-based line to start at. Default 1. With byteOffset: the line number at that byte.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(readFileLimits.maxLines)
    .optional()
    .describe(`Lines to read (1-${readFileLimits.maxLines}). Default: as many as fit.`),
  byteOffset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Byte offset to start at, from nextByteOffset or a truncation marker. Pass offset too.'),
  encoding: z
    .enum(['utf8', 'base64'])
    .optional()
    .describe(
      '"utf8" (default): text with line numbers. "base64": the raw bytes from byteOffset, for binary files.',
    ),
  lineNumbers: z.boolean().optional().describe('Prefix lines with "N<TAB>". Default true.'),
});

const continuation = {
  nextOffset: z.number().int().optional().describe('Line to pass as offset to continue.'),
  nextByteOffset: z.number().int().optional().describe('Byte to pass as byteOffset to continue.'),
};

/** Result of read_file: text, base64 bytes, media, or a binary description. */
export const readFileOutputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    path: z.string(),
    content: z.string(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    totalLines: z.number().int().nullable(),
    truncated: z.boolean(),
    ...continuation,
    size: z.number().int(),
    revision: z.string().nullable(),
    lineEnding: z.enum(['lf', 'crlf', 'mixed']).nullable(),
    bom: z.boolean(),
    notice: z.string().optional(),
  }),
  z.object({
    kind: z.literal('bytes'),
    path: z.string(),
    encoding: z.literal('base64'),
    content: z.string(),
    byteOffset: z.number().int(),
    byteLength: z.number().int(),
    size: z.number().int(),
    truncated: z.boolean(),
    nextByteOffset: z.number().int().optional(),
    revision: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('media'),
    path: z.string(),
    mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']),
    data: z.string().describe('Base64.'),
    size: z.number().int(),
    revision: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('binary'),
    path: z.string(),
    size: z.number().int(),
    typeGuess: z.string(),
    revision: z.string().nullable(),
    message: z.string(),
  }),
]);

/** Parsed read_file input. */
export type ReadFileInput = z.output<typeof readFileInputSchema>;
/** What read_file returns before output validation. */
export type ReadFileOutput = z.input<typeof readFileOutputSchema>;
