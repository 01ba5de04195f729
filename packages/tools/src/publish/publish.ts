/**
 * publish: hands a file from the sandbox to a person as a link (an {@link AssetPublisher}: an S3
 * presigned GET URL, a local directory), instead of reading it into the model's context.
 *
 * The file is resolved inside the root (symlinks included, as for every tool), checked to be a
 * regular file under the byte cap, and streamed to the publisher one range at a time
 * (sandbox-file-stream.ts: `dd` through `exec`); its sha256 is computed on the way. It is stat'ed
 * (`stat -L -c '%s %d:%i %Y'`, exit 0 or stat's reason) before and after, and a file that changed
 * in between fails the stream, so the publisher aborts its upload.
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
import { fileNotFound, isDirectory, notRegularFile } from '../files/file-tool-errors.js';
import { normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { inspectToolPath } from '../workspace/resolve-path.js';
import { isWellFormedText } from '../workspace/text-checks.js';
import type { AssetPublisher } from './asset-publisher.js';
import {
  minPublishExpiresInSeconds,
  normalizePublishToolOptions,
  type PublishToolOptions,
} from './publish-tool-options.js';
import { guessContentType } from './guess-content-type.js';
import { ddBlockBytes, openSandboxFileStream, readRange } from './sandbox-file-stream.js';

const inputShape = {
  path: z
    .string()
    .min(1)
    .describe('File to publish, relative to the workspace root (or absolute inside it).'),
  expiresInSeconds: z
    .number()
    .int()
    .min(minPublishExpiresInSeconds)
    .optional()
    .describe('How long the link works, in seconds. Default 3600 (one hour).'),
  filename: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !/[/\\\0]/.test(name) && isWellFormedText(name) && name !== '.' && name !== '..', {
      message: 'filename must be a plain name: no "/", "\\" or NUL, not "." or ".."',
    })
    .optional()
    .describe('Name the person downloads it as. Default: the file name.'),
  contentType: z
    .string()
    .regex(
      /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;\s*[\w.+-]+=("[^"]*"|[\w.+-]+))*$/,
      'contentType must be a media type such as text/html or application/pdf',
    )
    .optional()
    .describe('Media type, for example text/html. Default: guessed from the bytes and the extension.'),
};

const outputSchema = z.object({
  url: z.string().describe('The link. Anyone who has it can download the file until expiresAt.'),
  expiresAt: z.string().describe('ISO 8601 time the link stops working.'),
  path: z.string(),
  filename: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  contentType: z.string(),
});

/** What {@link createPublishTool}'s tool returns. */
export type PublishOutput = z.infer<typeof outputSchema>;

/**
 * Creates the publish tool (permission `write`: it sends a file out of the sandbox; effect `read`:
 * it changes nothing in it). It belongs in no read-only set.
 * @throws SandkitError `invalid_option` for a missing publisher or a bad bound (and as
 *   {@link normalizeCodingToolOptions} does).
 */
export function createPublishTool(
  client: SandboxClient,
  options: PublishToolOptions,
): Tool<z.ZodObject<typeof inputShape>, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  const settings = normalizePublishToolOptions(options);
  const { publisher } = options;
  const inputSchema = z.object({
    ...inputShape,
    expiresInSeconds: inputShape.expiresInSeconds.unwrap().max(settings.maxExpiresInSeconds).optional(),
  });
  return defineTool({
    name: 'publish',
    description: `Publish a file from the workspace as a link a person can open (${publisher.name}), instead of reading it into the conversation: reports, charts, build artifacts, any size up to ${mib(settings.maxBytes)} MiB.
- Returns url, expiresAt, bytes, sha256 and contentType. Give the url to the user.
- Anyone who has the url can download the file until it expires (default one hour, at most ${settings.maxExpiresInSeconds} seconds). Do not publish secrets.
Errors: "not_found", "is_directory" (publish one file; archive a directory with tar through exec first), "too_large", "outside_root", "refused" (not a regular file, unreadable, or it changed while publishing), "publish_failed" (the store refused it: the message says why).`,
    inputSchema,
    outputSchema,
    permission: 'write',
    effect: 'read',
    async execute(input, { signal }) {
      const target = await inspectToolPath(context, input.path);
      if (target.kind === 'missing') throw fileNotFound(input.path);
      if (target.kind === 'directory')
        throw isDirectory(input.path, 'publish one file (make an archive with exec: tar czf out.tgz DIR)');
      if (target.kind === 'other') throw notRegularFile(input.path, 'special');
      const stat = await statFile(client, target.absolute, input.path);
      if (stat.size > settings.maxBytes) {
        throw new ToolError({
          code: SandkitErrorCode.tooLarge,
          message: `${target.relative} has ${stat.size} bytes, over the publish limit of ${settings.maxBytes} bytes (${mib(settings.maxBytes)} MiB); compress it (gzip, or a smaller export) and publish that`,
          details: { path: target.relative, bytes: stat.size, maxBytes: settings.maxBytes },
        });
      }
      const filename = input.filename ?? posix.basename(target.absolute);
      const contentType =
        input.contentType ??
        guessContentType(filename, await readHead(client, target.absolute, stat.size, signal));
      const expiresInSeconds = input.expiresInSeconds ?? settings.defaultExpiresInSeconds;
      const file = openSandboxFileStream(client, target.absolute, {
        size: stat.size,
        rangeBytes: settings.rangeBytes,
        ...(signal ? { signal } : {}),
        beforeEnd: async () => {
          const after = await statFile(client, target.absolute, input.path);
          if (after.key !== stat.key) throw changedWhilePublishing(target.relative);
        },
      });
      let shared: Awaited<ReturnType<AssetPublisher['share']>>;
      try {
        shared = await publisher.share({
          stream: file.stream,
          filename,
          contentType,
          expiresInSeconds,
          size: stat.size,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        const own = file.stream.errored;
        file.stream.destroy();
        if (ToolError.isInstance(own)) throw own;
        if (signal?.aborted)
          throw new ToolError({ code: SandkitErrorCode.aborted, message: 'publish was aborted' });
        throw publishFailed(publisher, target.relative, error);
      }
      if (!file.stream.readableEnded) {
        file.stream.destroy();
        throw publishFailed(
          publisher,
          target.relative,
          new Error(
            `the publisher returned before reading the whole file (${file.bytesRead} of ${stat.size} bytes)`,
          ),
        );
      }
      return {
        url: shared.url,
        expiresAt: shared.expiresAt.toISOString(),
        path: target.relative,
        filename,
        bytes: stat.size,
        sha256: file.hash.digest('hex'),
        contentType,
      };
    },
  });
}

/** Size, identity and modification time of the file, as one comparable key. */
async function statFile(
  client: SandboxClient,
  absolute: string,
  shown: string,
): Promise<{ size: number; key: string }> {
  const result = await client.exec(formatCommand(['stat', '-L', '-c', '%s %d:%i %Y', '--', absolute]));
  const key = result.stdout.trim();
  const size = Number(key.split(' ')[0]);
  if (result.exitCode !== 0 || !Number.isSafeInteger(size)) {
    if (/No such file/i.test(result.stderr)) throw fileNotFound(shown);
    throw notRegularFile(shown, 'unreadable');
  }
  return { size, key };
}

/** The file's first bytes (up to one dd block), for guessing its type. */
async function readHead(
  client: SandboxClient,
  absolute: string,
  size: number,
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  if (size === 0) return new Uint8Array();
  return Buffer.concat(await readRange(client, absolute, 0, Math.min(size, ddBlockBytes), signal));
}

function changedWhilePublishing(path: string): ToolError {
  return new ToolError({
    code: SandkitErrorCode.refused,
    message: `${path} changed while it was being published; nothing was published; publish it again once it is written`,
    details: { path },
  });
}

function publishFailed(publisher: AssetPublisher, path: string, error: unknown): ToolError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError({
    code: SandkitErrorCode.publishFailed,
    message: `publishing ${path} to ${publisher.name} failed: ${reason}`,
    details: { path, publisher: publisher.name },
    cause: error,
  });
}

function mib(bytes: number): string {
  return String(Math.round((bytes / 1024 / 1024) * 10) / 10);
}
