/**
 * delete_file: forced removal (`rm -f`, `rm -rf` when recursive) of a file, symlink or directory.
 * The parent directory is resolved inside the root and the last component is removed as it is,
 * so a symlink is deleted itself and never followed (`rm` does not follow links, even with -r).
 * Exit-code contract of the script: 0 with one word on stdout (`deleted`, `missing`, `directory`),
 * anything else is `rm`'s failure, reported with its stderr.
 * @module
 */
import { posix } from 'node:path';
import {
  defineTool,
  formatCommand,
  type SandboxClient,
  SandkitErrorCode,
  type Tool,
  ToolError,
} from '@sandkit/core';
import { z } from 'zod';
import { isWellFormedText, loneSurrogateMessage } from '../workspace/text-checks.js';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { checkPathConvention } from '../workspace/path-convention.js';
import { withPathLock } from '../workspace/path-lock.js';
import { assertNotProtected } from '../workspace/protected-path.js';
import { isInside, resolveRoot, resolveToolPath } from '../workspace/resolve-path.js';
import { findNameTwin, hasNonAscii, twinNotice } from '../workspace/unicode-name-twin.js';

/** Options of {@link createDeleteFileTool}. */
export interface DeleteFileToolOptions extends CodingToolOptions {}

const description = `Delete a file, a symlink, or (with recursive: true) a directory and everything in it.
- A path that does not exist is fine: the result says deleted: false.
- A symlink is removed itself; what it points to is never touched.
- The workspace root itself cannot be deleted.
Errors: "is_directory" (pass recursive: true to delete a directory with its contents), "refused" (the root, or rm failed: the message says why), "outside_root" (use a path inside the workspace).`;

const inputSchema = z.object({
  path: z
    .string()
    .min(1)
    // the last component is used as written: U+FFFD in its place would delete another file
    .refine(isWellFormedText, loneSurrogateMessage('path'))
    .describe('Path to delete, relative to the workspace root (or absolute inside it).'),
  recursive: z
    .boolean()
    .optional()
    .describe('Allow deleting a directory and all it contains. Default false.'),
});

const outputSchema = z.object({
  path: z.string(),
  deleted: z.boolean().describe('false when nothing existed at the path.'),
  notice: z.string().optional(),
});

const script = `p=$1 recursive=$2
if [ ! -e "$p" ] && [ ! -L "$p" ]; then echo missing; exit 0; fi
if [ -d "$p" ] && [ ! -L "$p" ]; then
  if [ "$recursive" != 1 ]; then echo directory; exit 0; fi
  rm -rf -- "$p" || exit 1
else rm -f -- "$p" || exit 1; fi
echo deleted`;

/**
 * Creates the delete_file tool (permission `write`).
 * @throws SandkitError `invalid_option` from {@link normalizeCodingToolOptions} on bad options.
 */
export function createDeleteFileTool(
  client: SandboxClient,
  options: DeleteFileToolOptions = {},
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  return defineTool({
    name: 'delete_file',
    description,
    inputSchema,
    outputSchema,
    permission: 'write',
    async execute(input, { signal }) {
      const root = await resolveRoot(context);
      // Before any lexical step: posix.resolve would fold "junk\0/.." away and delete another file.
      if (input.path.includes('\0')) await resolveToolPath(context, input.path); // throws, naming the NUL byte
      checkPathConvention(input.path);
      const lexical = posix.resolve(root, input.path);
      if (lexical === root || !isInside(root, lexical)) {
        if (lexical === root) {
          throw new ToolError({
            code: SandkitErrorCode.refused,
            message: `"${input.path}" is the workspace root, which cannot be deleted; delete the entries inside it instead`,
            details: { path: input.path },
          });
        }
        await resolveToolPath(context, input.path); // throws outside_root with the standard message
      }
      // Resolve the parent (symlinks in it must stay inside); keep the last component as written.
      const parent = await resolveToolPath(context, posix.dirname(lexical));
      const target = posix.join(parent.absolute, posix.basename(lexical));
      const shown = posix.join(parent.relative, posix.basename(lexical));
      if (target === parent.root || !isInside(parent.root, target)) await resolveToolPath(context, target);
      assertNotProtected(context, { relative: shown }, 'delete');
      const run = (path: string) =>
        withPathLock(client, path, async () => {
          const argv = ['sh', '-c', script, 'delete_file', path, input.recursive ? '1' : '0'];
          return client.exec(formatCommand(argv), signal ? { signal } : {});
        });
      let result = await run(target);
      let shownPath = shown;
      let notice: string | undefined;
      if (result.stdout.trim() === 'missing' && hasNonAscii(target)) {
        // a name stored in another Unicode normal form (NFD from macOS) than the one typed
        const twin = await findNameTwin(client, target);
        if (twin && posix.dirname(twin.path) === parent.absolute) {
          result = await run(twin.path);
          shownPath = posix.join(parent.relative, twin.onDisk);
          notice = twinNotice(twin);
        }
      }
      const word = result.stdout.trim();
      if (result.exitCode !== 0 || !['missing', 'directory', 'deleted'].includes(word)) {
        throw new ToolError({
          code: SandkitErrorCode.refused,
          message: `deleting ${shownPath} failed (exit ${result.exitCode}): ${result.stderr.trim() || 'no reason given'}; check permissions with list_files`,
          details: { path: shownPath, exitCode: result.exitCode },
        });
      }
      if (word === 'directory') {
        throw new ToolError({
          code: SandkitErrorCode.isDirectory,
          message: `${shownPath} is a directory; pass recursive: true to delete it and everything in it`,
          details: { path: shownPath },
        });
      }
      return { path: shownPath, deleted: word === 'deleted', ...(notice ? { notice } : {}) };
    },
  });
}
