/**
 * apply_diff: applies a unified (or git-style) diff with GNU patch, all or nothing.
 *
 * Program: GNU `patch` 2.7 (`patch --batch --forward -u -p1 -F<fuzz> --no-backup-if-mismatch
 * --reject-file=- --quoting-style=literal`, the diff on stdin). Exit codes: 0 = every hunk
 * applied, 1 = some hunks failed, 2 = trouble (malformed diff, I/O). The diff is parsed here
 * first: every target name is checked inside the root before anything runs, names are re-quoted
 * and hunk lines take the target file's line endings. Then a `--dry-run`; only when every hunk of
 * every file applies does the real run happen, so a failing diff changes nothing, and no
 * `.orig`/`.rej` file is ever left.
 *
 * Failure reporting (decided): a hunk that does not apply makes the whole call a ToolError
 * `patch_failed` naming file, hunk number, header and the reason found by comparing the hunk
 * with the file ("`def b():` does not match any line of m.py; closest block starts at line 6 …");
 * `details.conflicts` holds `{ path, hunk, reason }` for each. Because of that, the result's
 * `conflicts` is always empty: nothing is ever half-applied.
 * @module
 */
import { posix } from 'node:path';
import { defineTool, type SandboxClient, SandkitErrorCode, type Tool, ToolError } from '@sandkit/core';
import { z } from 'zod';
import { cwdNotFound } from '../exec/cwd-tool-error.js';
import { isWellFormedText, loneSurrogateMessage } from '../workspace/text-checks.js';
import { parseUnifiedDiff } from '../diff/parse-unified-diff.js';
import { checkNameLengths } from '../files/write-file.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { checkPathConvention } from '../workspace/path-convention.js';
import { assertNotProtected } from '../workspace/protected-path.js';
import { inspectToolPath, resolveToolPath } from '../workspace/resolve-path.js';
import { withPathLocks } from '../workspace/with-path-locks.js';
import { alignHunkContext } from './align-hunk-context.js';
import { checkPatchReports, type PatchTarget } from './check-patch-reports.js';
import { fileLines } from './diagnose-hunk.js';
import { formatPatchInput, planLineEndings } from './format-patch-input.js';
import { parsePatchOutput } from './parse-patch-output.js';
import { assertOneSectionPerFile, assertPreconditions, readIfExists } from './patch-preconditions.js';
import { runPatch } from './run-patch.js';

const description = `Apply a unified diff (as made by diff -u or git diff) to files in the workspace. All or nothing: if any hunk does not apply, nothing is changed and the error says which file and hunk failed and why.
- Headers: "--- a/path" / "+++ b/path" (git style, a/ b/ prefixes stripped) or "--- path" / "+++ path". New files: "--- /dev/null"; deleted files: "+++ /dev/null". git rename headers work.
- Context lines must match the file exactly (fuzz 0). Line numbers in @@ headers may be off; the hunk is found nearby, and the result reports offsets. If the same context appears in several places and the line numbers are wrong, the call is refused: add more context lines.
- "\\ No newline at end of file" is honoured both ways; files keep their CRLF or LF line endings.
- fuzz (1-3) lets patch ignore that many context lines at each end of a hunk: use only when needed; the result then reports exact: false with the fuzz and lines used. Check such a result with read_file.
- Wrong @@ line counts are corrected from the hunk body (notes say so).
- On "patch_failed": re-read the file around the reported line and rebuild the hunk from its exact current text.`;

const inputSchema = z.object({
  diff: z
    .string()
    .min(1)
    .max(4 * 1024 * 1024)
    .refine(isWellFormedText, loneSurrogateMessage('diff'))
    .describe('The unified diff text.'),
  cwd: z
    .string()
    .max(4096)
    .optional()
    .describe('Directory the diff paths are relative to, inside the workspace. Default: the root.'),
  fuzz: z
    .number()
    .int()
    .min(0)
    .max(3)
    .optional()
    .describe('Context lines patch may ignore at each end of a hunk. Default 0 (exact).'),
  stripLevel: z
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .describe('Leading path components to strip (patch -p). Default: 1 for a/ b/ diffs, else 0.'),
});

const outputSchema = z.object({
  files: z.array(z.object({ path: z.string(), status: z.enum(['added', 'modified', 'deleted', 'renamed']) })),
  hunksApplied: z.number().int().min(0),
  conflicts: z.array(z.object({ path: z.string(), hunk: z.number().int(), reason: z.string() })),
  exact: z.boolean(),
  fuzzUsed: z.number().int().min(0).optional(),
  offsets: z
    .array(
      z.object({
        path: z.string(),
        hunk: z.number().int(),
        line: z.number().int(),
        offset: z.number().int(),
        fuzz: z.number().int(),
      }),
    )
    .optional(),
  notes: z.array(z.string()).optional(),
});

/** Input of the apply_diff tool. */
export type ApplyDiffInput = z.input<typeof inputSchema>;
/** Result of the apply_diff tool. */
export type ApplyDiffOutput = z.output<typeof outputSchema>;

/**
 * Creates the apply_diff tool (permission `write`). See the module doc for the all-or-nothing
 * contract. Result: `files` (root-relative path and status), `hunksApplied`, `conflicts` (always
 * empty, see module doc), `exact` (`false` when any hunk needed fuzz or an offset), `fuzzUsed`,
 * `offsets` (one entry per hunk not applied exactly where its header said) and `notes`.
 * @throws ToolError `invalid_patch` when the text is not a usable diff (no headers, binary patch,
 *   malformed per patch); `outside_root` when a target or cwd is outside the root; `not_found`
 *   when cwd is not an existing directory; `not_directory` when a new file's parent is a file;
 *   `patch_failed` when a hunk does not apply, a file to change is missing, a new file exists,
 *   the diff was already applied, or a fuzzy/shifted hunk fits in more than one place.
 */
export function createApplyDiffTool(
  client: SandboxClient,
  options?: CodingToolOptions,
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  return defineTool({
    name: 'apply_diff',
    description,
    inputSchema,
    outputSchema,
    permission: 'write',
    async execute(input, { signal }) {
      const parsed = parseUnifiedDiff(
        input.diff,
        input.stripLevel === undefined ? {} : { stripLevel: input.stripLevel },
      );
      const binary = parsed.files.find((file) => file.binary);
      if (parsed.errors.length > 0 || binary) {
        const problems = binary
          ? [`${binary.newPath ?? binary.oldPath}: binary patches cannot be applied; use write_file`]
          : parsed.errors;
        throw new ToolError({
          code: SandkitErrorCode.invalidPatch,
          message: `not a usable diff: ${problems.join('; ')}`,
          details: { problems },
        });
      }
      const cwd = await inspectToolPath(context, input.cwd ?? '.');
      // else every file of the diff would be reported missing "relative to the diff's directory"
      if (cwd.kind !== 'directory') throw cwdNotFound(input.cwd);
      const targets: PatchTarget[] = await Promise.all(
        parsed.files.map(async (file) => {
          for (const path of [file.oldPath, file.newPath]) if (path) checkPathConvention(path, 'diff path');
          const oldPath =
            file.oldPath === null
              ? undefined
              : await inspectToolPath(context, `${cwd.absolute}/${file.oldPath}`);
          const newPath =
            file.newPath === null
              ? undefined
              : await resolveToolPath(context, `${cwd.absolute}/${file.newPath}`);
          for (const path of [oldPath, newPath]) {
            if (path === undefined) continue;
            checkNameLengths(path.absolute, path.relative);
            assertNotProtected(context, path, 'patch');
          }
          return { file, old: oldPath, new: newPath };
        }),
      );
      assertOneSectionPerFile(targets);
      const lockPaths = targets
        .flatMap((target) => [target.old?.absolute, target.new?.absolute])
        .filter((p) => p !== undefined);
      return withPathLocks(client, lockPaths, async () => {
        for (const target of targets) {
          target.content = target.old ? await readIfExists(client, target.old) : undefined;
          await assertPreconditions(client, target);
        }
        const notes: string[] = [];
        for (const target of targets) {
          // patch runs from the real root with symlink-free names: a symlink inside the workspace is
          // followed, as edit_file and write_file follow it
          target.file = {
            ...target.file,
            oldPath: target.old ? posix.relative(cwd.root, target.old.absolute) : null,
            newPath: target.new ? posix.relative(cwd.root, target.new.absolute) : null,
          };
          if (target.content !== undefined) notes.push(...alignFileHunks(target));
        }
        const patchInput = formatPatchInput(
          targets.map((target) => target.file),
          targets.map((target) =>
            target.content === undefined ? undefined : planLineEndings(target.content),
          ),
        );
        const patchOptions = { cwd: cwd.root, fuzz: input.fuzz ?? 0, ...(signal ? { signal } : {}) };
        const dry = await runPatch(client, patchInput, { ...patchOptions, dryRun: true });
        const checked = checkPatchReports(targets, parsePatchOutput(dry.output), dry, input.fuzz ?? 0);
        const real = await runPatch(client, patchInput, { ...patchOptions, dryRun: false });
        if (real.exitCode !== 0) {
          throw new ToolError({
            code: SandkitErrorCode.patchFailed,
            message: `patch failed on the real run after a clean dry run (exit ${real.exitCode}); files may be partly changed, re-read them: ${real.output.trim()}`,
            details: { output: real.output },
          });
        }
        notes.unshift(
          ...parsed.files.flatMap((file) =>
            file.hunks
              .filter((hunk) => hunk.recounted)
              .map(
                (hunk) =>
                  `${file.newPath ?? file.oldPath}: hunk ${hunk.index} header counts corrected to -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines}`,
              ),
          ),
        );
        notes.push(...checked.notes);
        return {
          files: targets.map((target) => ({
            path: (target.new ?? target.old)!.relative,
            status: target.file.status === 'copied' ? 'added' : target.file.status,
          })),
          hunksApplied: parsed.files.reduce((sum, file) => sum + file.hunks.length, 0),
          conflicts: [],
          exact: checked.offsets.length === 0,
          ...(checked.fuzzUsed > 0 ? { fuzzUsed: checked.fuzzUsed } : {}),
          ...(checked.offsets.length > 0 ? { offsets: checked.offsets } : {}),
          ...(notes.length > 0 ? { notes } : {}),
        };
      });
    },
  });
}

/**
 * Replaces the file's hunks whose context is asymmetric but match exactly once (align-hunk-context.ts)
 * and returns a note for each one whose header named another line.
 */
function alignFileHunks(target: PatchTarget): string[] {
  const lines = fileLines(target.content!);
  const notes: string[] = [];
  const hunks = target.file.hunks.map((hunk) => {
    const aligned = alignHunkContext(hunk, lines);
    if (aligned === undefined) return hunk;
    if (aligned.matchedAt !== hunk.oldStart) {
      notes.push(
        `${(target.new ?? target.old)!.relative}: hunk ${hunk.index} matched exactly at line ${aligned.matchedAt} (its header said ${hunk.oldStart})`,
      );
    }
    return aligned.hunk;
  });
  target.file = { ...target.file, hunks };
  return notes;
}
