/**
 * edit_file: exact oldText → newText replacements in one file, all or nothing, on the file's raw
 * bytes (see apply-text-edits.ts). Reads with the contract's `readFile`, writes with its atomic
 * `writeFile` (which keeps the mode), under {@link withPathLock} so concurrent edits, writes and
 * deletes of the same path never interleave. One `exec` per call (path confinement, kind and size,
 * before the lock); inside the lock only the read and the write. Returns a unified diff and the new revision.
 * @module
 */
import {
  defineTool,
  type SandboxClient,
  SandboxError,
  SandkitErrorCode,
  type Tool,
  ToolError,
  truncateUtf8,
} from '@sandkit/core';
import { z } from 'zod';
import { unifiedDiff } from '../diff/unified-diff.js';
import { contentRevision, expectedRevisionField, maxRevisionBytes } from '../files/content-revision.js';
import {
  checkExpectedRevision,
  fileNotFound,
  isDirectory,
  notRegularFile,
  toFileToolError,
} from '../files/file-tool-errors.js';
import { inPlaceNotice, writeKeepingLinks } from '../files/write-keeping-links.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { withInodeLock, withPathLock } from '../workspace/path-lock.js';
import { assertNotProtected } from '../workspace/protected-path.js';
import { inspectToolPath } from '../workspace/resolve-path.js';
import { isWellFormedText, loneSurrogateMessage } from '../workspace/text-checks.js';
import { applyTextEdits } from './apply-text-edits.js';

/** Options of {@link createEditFileTool}. */
export interface EditFileToolOptions extends CodingToolOptions {}

/** Most edits in one call. */
export const maxEditsPerCall = 100;

const description = `Edit a text file by exact replacement: each edit replaces oldText with newText.
- oldText must occur exactly once in the file as it was before this call (set replaceAll: true to replace every occurrence). Copy it exactly from read_file output, without the "N<TAB>" line-number prefix; include enough surrounding lines to make it unique.
- All edits of one call are checked first and applied together, or none is; they must not overlap.
- Text that differs only in Unicode normalization (NFC vs NFD) matches, with a notice (replaceAll also replaces look-alikes in the other form, each keeping its own); when it differs in invisible characters (zero-width, no-break space), the error names the code points and line.
- Only the matched text changes: tabs, quotes, other characters, the BOM, the file mode and every other byte stay as they are. "\\r\\n" and "\\n" match each other, and newText gets the file's own line endings. "$" in newText is literal.
- Files up to ${maxRevisionBytes / 1024 / 1024} MiB. To create a file or replace all of it, use write_file.
- expectedRevision (optional): the revision from read_file, when you edit from an earlier read; if the file changed since, the edit fails with "revision_mismatch" and nothing is written: read it again.
Returns a unified diff, the first changed line, the number of replacements and the new revision.
Errors (nothing is written on any error): "no_match" (read the file again and copy the text exactly), "not_unique" (the message lists the lines: add context or use replaceAll), "overlapping_edits" (merge them), "empty_old_text", "no_op" (oldText equals newText), "not_found" (create the file with write_file), "binary_file", "too_large", "outside_root".`;

const inputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace root (or absolute inside it).'),
  edits: z
    .array(
      z.object({
        oldText: z
          .string()
          .refine(isWellFormedText, loneSurrogateMessage('oldText'))
          .describe('Exact text to find (must occur once unless replaceAll). Not empty.'),
        newText: z
          .string()
          .refine(isWellFormedText, loneSurrogateMessage('newText'))
          .describe('Replacement text (may be empty to delete).'),
        replaceAll: z.boolean().optional().describe('Replace every occurrence of oldText. Default false.'),
      }),
    )
    .min(1)
    .max(maxEditsPerCall)
    .describe(`Replacements, applied together against the original content (1-${maxEditsPerCall}).`),
  expectedRevision: expectedRevisionField('edit'),
});

const outputSchema = z.object({
  path: z.string(),
  diff: z.string().describe('Unified diff of the change.'),
  firstChangedLine: z.number().int().min(1),
  replacements: z.number().int().min(1),
  revision: z.string().describe('Revision of the new content; pass it as expectedRevision to chain edits.'),
  lineEnding: z
    .enum(['lf', 'crlf', 'mixed'])
    .nullable()
    .describe('Line ending of the file; newText was written with it.'),
  notice: z.string().optional(),
});

/**
 * Creates the edit_file tool (permission `write`).
 * @throws SandkitError `invalid_option` from {@link normalizeCodingToolOptions} on bad options.
 */
export function createEditFileTool(
  client: SandboxClient,
  options: EditFileToolOptions = {},
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  return defineTool({
    name: 'edit_file',
    description,
    inputSchema,
    outputSchema,
    permission: 'write',
    async execute(input, { signal }) {
      const target = await inspectToolPath(context, input.path);
      const shown = target.relative;
      assertNotProtected(context, target, 'edit');
      if (target.kind === 'missing') throw missingFile(shown);
      if (target.kind === 'directory') throw isDirectory(shown);
      if (target.kind === 'other') throw notRegularFile(shown, 'special');
      if (target.size > maxRevisionBytes) {
        throw new ToolError({
          code: SandkitErrorCode.tooLarge,
          message: `${shown} is ${target.size} bytes, over edit_file's ${maxRevisionBytes} byte limit; change it with apply_diff or a command (sed) through exec`,
          details: { path: shown, size: target.size },
        });
      }
      return withPathLock(client, target.absolute, () =>
        withInodeLock(client, target.links, target.inode, async () => {
          const before = await client.readFile(target.absolute, signal ? { signal } : {}).catch((error) => {
            throw SandboxError.isInstance(error) && error.code === SandkitErrorCode.fileNotFound
              ? missingFile(shown)
              : toFileToolError(error, shown);
          });
          const revisionBefore = contentRevision(before);
          checkExpectedRevision(shown, input.expectedRevision, revisionBefore);
          if (before.subarray(0, 8192).includes(0)) {
            throw new ToolError({
              code: SandkitErrorCode.binaryFile,
              message: `${shown} is binary (it has NUL bytes); edit_file changes text files only: use write_file with encoding "base64" to replace it`,
              details: { path: shown },
            });
          }
          const applied = applyTextEdits(before, input.edits);
          const mode = await writeKeepingLinks(
            client,
            target.absolute,
            applied.bytes,
            target.links,
            signal,
          ).catch((error) => {
            throw toFileToolError(error, shown);
          });
          const diff = unifiedDiff(shown, before, applied.bytes);
          const capped = truncateUtf8(diff, context.maxOutputBytes - 512);
          const notices = [
            ...(target.notice ? [target.notice] : []),
            ...applied.notices,
            ...(applied.lineEnding === 'mixed'
              ? [
                  'the file mixes CRLF and LF line endings; each replacement was written with the ending of the lines it replaced (check the diff)',
                ]
              : []),
            ...(mode === 'in-place' ? [inPlaceNotice(target.links)] : []),
          ];
          return {
            path: shown,
            diff: capped.truncated
              ? `${capped.text}\n[diff truncated: showed ${capped.keptBytes} of ${capped.totalBytes} bytes; read the file to see the rest]`
              : diff,
            firstChangedLine: applied.firstChangedLine,
            lineEnding: applied.lineEnding,
            ...(notices.length > 0 ? { notice: notices.join('. ') } : {}),
            replacements: applied.replacements,
            revision: contentRevision(applied.bytes),
          };
        }),
      );
    },
  });
}

function missingFile(path: string): ToolError {
  return fileNotFound(path, 'create it with write_file, or check the path with list_files');
}
