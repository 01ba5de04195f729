/**
 * write_file: creates or replaces a whole file with the contract's atomic `writeFile` (temp file
 * + rename, parents created, an existing file's mode kept), or in place for a file with hard links
 * (write-keeping-links.ts), under {@link withPathLock} (and {@link withInodeLock} for a hard-linked file). With
 * `expectedRevision` the file is read first (inside the lock) and the write refused when its
 * revision differs, as edit_file does.
 * @module
 */
import {
  defineTool,
  formatCommand,
  type SandboxClient,
  SandkitErrorCode,
  type Tool,
  ToolError,
} from '@sandkit/core';
import { z } from 'zod';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { withInodeLock, withPathLock } from '../workspace/path-lock.js';
import { assertNotProtected } from '../workspace/protected-path.js';
import { relativeTo, resolveToolPath } from '../workspace/resolve-path.js';
import { isWellFormedText, loneSurrogateMessage } from '../workspace/text-checks.js';
import { contentRevision, expectedRevisionField } from './content-revision.js';
import {
  checkExpectedRevision,
  isDirectory,
  notRegularFile,
  parsePathKind,
  statPathCommand,
  toFileToolError,
} from './file-tool-errors.js';
import { inPlaceNotice, writeKeepingLinks } from './write-keeping-links.js';

/** Options of {@link createWriteFileTool}. */
export interface WriteFileToolOptions extends CodingToolOptions {}

/** Most bytes write_file writes in one call (after base64 decoding). */
export const maxWriteBytes = 2 * 1024 * 1024;

const description = `Create a file, or replace ALL of an existing file's content, with the given content.
- Parent directories are created. An existing file keeps its mode (permissions). The write is atomic (readers see the old or the new file), except for a file with hard links, which is written in place so the links stay joined.
- Up to ${maxWriteBytes / 1024 / 1024} MiB. content is UTF-8 text written as is (line endings included), or base64 with encoding="base64" for binary files.
- To change part of a file, use edit_file instead (it keeps everything outside the replaced text).
- expectedRevision: when you replace a file you read, pass the revision read_file returned; if the file changed since (or is gone), nothing is written and the error is "revision_mismatch": read it again.
Returns bytesWritten, created (true when the file did not exist) and the new revision.
Errors: "revision_mismatch" (read the file again), "too_large" (split the content or produce it with a command), "is_directory" (pick a file path), "outside_root" (use a path inside the workspace), "not_directory" (a parent is a file), "invalid_arguments" (content is not valid base64, or a name over 255 bytes).`;

const inputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace root (or absolute inside it).'),
  content: z
    .string()
    .refine(isWellFormedText, loneSurrogateMessage('content'))
    .describe(`The whole new content (at most ${maxWriteBytes} bytes once encoded).`),
  encoding: z
    .enum(['utf8', 'base64'])
    .optional()
    .describe('"utf8" (default) or "base64" for binary content.'),
  expectedRevision: expectedRevisionField('write'),
});

const outputSchema = z.object({
  path: z.string(),
  bytesWritten: z.number().int().min(0),
  created: z.boolean().describe('true when the file did not exist before.'),
  revision: z.string().describe('Revision of the new content; pass it as expectedRevision to chain changes.'),
  notice: z.string().optional(),
});

/**
 * Creates the write_file tool (permission `write`).
 * @throws SandkitError `invalid_option` from {@link normalizeCodingToolOptions} on bad options.
 */
export function createWriteFileTool(
  client: SandboxClient,
  options: WriteFileToolOptions = {},
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  return defineTool({
    name: 'write_file',
    description,
    inputSchema,
    outputSchema,
    permission: 'write',
    async execute(input, { signal }) {
      const bytes = decodeContent(input.content, input.encoding ?? 'utf8');
      if (bytes.length > maxWriteBytes) {
        throw new ToolError({
          code: SandkitErrorCode.tooLarge,
          message: `content is ${bytes.length} bytes, over write_file's ${maxWriteBytes} byte limit; write a smaller file, split it, or generate it with a command through exec`,
          details: { bytes: bytes.length, limit: maxWriteBytes },
        });
      }
      const resolved = await resolveToolPath(context, input.path);
      const shown = resolved.relative;
      if (shown === '.') throw isDirectory(shown, 'give a file path inside it');
      assertNotProtected(context, resolved);
      checkNameLengths(resolved.absolute, shown);
      return withPathLock(client, resolved.absolute, async () => {
        const quoted = formatCommand([resolved.absolute]);
        const stat = await client.exec(
          `${statPathCommand(quoted)}\n${nearestAncestorCommand(quoted)}`,
          signal ? { signal } : {},
        );
        const split = stat.stdout.indexOf('\n');
        const kindLine = split === -1 ? stat.stdout : stat.stdout.slice(0, split);
        const ancestorLine = split === -1 ? '' : stat.stdout.slice(split + 1).replace(/\n$/, '');
        const { kind, links, inode } = parsePathKind(kindLine);
        if (kind === 'directory') throw isDirectory(shown, 'give a file path inside it');
        if (kind === 'other') throw notRegularFile(shown, 'special');
        if (kind === 'missing' && ancestorLine.startsWith('file ')) {
          throw new ToolError({
            code: SandkitErrorCode.notDirectory,
            message: `a parent of "${shown}" (${relativeTo(resolved.root, ancestorLine.slice(5))}) is a file, not a directory; pick another path or delete that file first`,
            details: { path: shown },
          });
        }
        return withInodeLock(client, links, inode, async () => {
          if (input.expectedRevision !== undefined) {
            const current =
              kind === 'missing'
                ? null
                : await client.readFile(resolved.absolute, signal ? { signal } : {}).catch((error) => {
                    throw toFileToolError(error, shown);
                  });
            checkExpectedRevision(shown, input.expectedRevision, current && contentRevision(current));
          }
          const mode = await writeKeepingLinks(client, resolved.absolute, bytes, links, signal).catch(
            (error) => {
              throw toFileToolError(error, shown);
            },
          );
          return {
            path: shown,
            bytesWritten: bytes.length,
            created: kind === 'missing',
            revision: contentRevision(bytes),
            ...(mode === 'in-place' || resolved.notice
              ? {
                  notice: [resolved.notice, mode === 'in-place' ? inPlaceNotice(links) : undefined]
                    .filter(Boolean)
                    .join('. '),
                }
              : {}),
          };
        });
      });
    },
  });
}

/** Longest file name (one path component) in bytes on Linux file systems (`NAME_MAX`). */
const maxNameBytes = 255;
/** Longest whole path in bytes on Linux (`PATH_MAX` less the NUL). */
const maxPathBytes = 4095;

/**
 * Refuses a path the file system would reject as too long (a model's mistake, not a sandbox failure).
 * @throws ToolError `invalid_arguments` naming the limit.
 */
export function checkNameLengths(absolute: string, shown: string): void {
  const tooLong = absolute.split('/').find((name) => Buffer.byteLength(name) > maxNameBytes);
  if (tooLong !== undefined || Buffer.byteLength(absolute) > maxPathBytes) {
    throw new ToolError({
      code: SandkitErrorCode.invalidArguments,
      message: `path "${shown.slice(0, 80)}${shown.length > 80 ? '…' : ''}" is too long: each name may have at most ${maxNameBytes} bytes and the whole path ${maxPathBytes}; use a shorter path`,
      details: { path: shown },
    });
  }
}

/**
 * A command printing `file <path>` when the nearest existing ancestor of `quotedPath` is not a
 * directory (the write could not create its parents), `dir <path>` otherwise.
 */
function nearestAncestorCommand(quotedPath: string): string {
  return `d=$(dirname -- ${quotedPath}); while [ ! -e "$d" ] && [ ! -L "$d" ]; do d=$(dirname -- "$d"); done; if [ -d "$d" ]; then printf 'dir %s\n' "$d"; else printf 'file %s\n' "$d"; fi`;
}

/** The bytes of `content`; base64 is checked strictly (standard or URL-safe alphabet, optional padding). */
function decodeContent(content: string, encoding: 'utf8' | 'base64'): Uint8Array {
  if (encoding === 'utf8') return Buffer.from(content, 'utf8');
  const compact = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new ToolError({
      code: SandkitErrorCode.invalidArguments,
      message:
        'content is not valid base64 (encoding "base64"); send standard base64, or use encoding "utf8" for text',
      details: {},
    });
  }
  return Buffer.from(compact, 'base64');
}
