/**
 * read_file: a window of a text file with line numbers, raw bytes as base64, or an image / PDF as
 * media. The window is cut inside the sandbox (`grep -c -m` or `awk` to find a line, `tail -c` to
 * cut; see file-slice.ts), so reading near the end of a huge file moves only the window. Never throws on
 * encodings: invalid UTF-8 is shown with U+FFFD and a notice giving the first bad byte.
 * @module
 */
import { defineTool, type SandboxClient, SandkitErrorCode, type Tool, ToolError } from '@sandkit/core';
import { type CodingToolOptions, normalizeCodingToolOptions } from '../workspace/coding-tool-options.js';
import { resolveToolPath } from '../workspace/resolve-path.js';
import { contentRevision, maxRevisionBytes, revisionFromDigest } from './content-revision.js';
import { type FileSlice, measureLine, readFileSlice } from './file-slice.js';
import { fileNotFound, isDirectory, notRegularFile } from './file-tool-errors.js';
import { detectLineEnding } from './line-endings.js';
import { countLines, countNewlines, lineStart } from './line-offsets.js';
import { guessBinaryType, type MediaType, mediaTypeFromPath, sniffMediaType } from './media-type.js';
import { readFileContent } from './read-file-content.js';
import {
  describeReadFile,
  type ReadFileInput,
  type ReadFileOutput,
  readFileInputSchema,
  readFileLimits,
  readFileOutputSchema,
} from './read-file-schema.js';
import { formatTextWindow } from './text-window.js';

/** Options of {@link createReadFileTool}. */
export interface ReadFileToolOptions extends CodingToolOptions {}

/**
 * Creates the read_file tool (permission `read`).
 * @throws SandkitError `invalid_option` from {@link normalizeCodingToolOptions} on bad options.
 */
export function createReadFileTool(
  client: SandboxClient,
  options: ReadFileToolOptions = {},
): Tool<typeof readFileInputSchema, typeof readFileOutputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  const textBudget = Math.min(readFileLimits.maxBytes, context.maxOutputBytes - readFileLimits.statusReserve);
  return defineTool({
    name: 'read_file',
    description: describeReadFile(textBudget),
    inputSchema: readFileInputSchema,
    outputSchema: readFileOutputSchema,
    permission: 'read',
    async execute(input, { signal }) {
      const resolved = await resolveToolPath(context, input.path);
      const request = { client, path: resolved.absolute, shown: resolved.relative, textBudget, signal };
      const result = await (input.encoding === 'base64'
        ? readBytes(request, input)
        : readText(request, input));
      if (resolved.notice === undefined || result.kind !== 'text') return result;
      return { ...result, notice: [resolved.notice, result.notice].filter(Boolean).join('. ') };
    },
    toContent: readFileContent,
  });
}

interface ReadRequest {
  client: SandboxClient;
  path: string;
  shown: string;
  textBudget: number;
  signal: AbortSignal | undefined;
}

async function readText(request: ReadRequest, input: ReadFileInput): Promise<ReadFileOutput> {
  const maxLines = input.limit ?? readFileLimits.maxLines;
  const mediaByName = mediaTypeFromPath(request.path);
  const slice = await sliceOrThrow(request, input, {
    wholeMaxBytes: mediaByName ? readFileLimits.maxMediaBytes : readFileLimits.maxBytes,
    maxBytes: request.textBudget,
    allowBinary: false,
  });
  if (slice.kind === 'whole') {
    const media = sniffMediaType(slice.bytes);
    if (media) return mediaResult(request, media, slice.bytes);
    if (slice.bytes.subarray(0, 8192).includes(0))
      return binaryResult(request, slice.size, slice.bytes, contentRevision(slice.bytes));
    return wholeText(request, input, slice.bytes, maxLines);
  }
  const revision = slice.kind === 'past-end' ? null : revisionFromDigest(slice.digest ?? '');
  if (slice.kind === 'past-end') throw pastEnd(request.shown, input, slice.size, slice.totalLines);
  const media = sniffMediaType(slice.head);
  if (media && slice.size <= readFileLimits.maxMediaBytes) {
    const whole = await sliceOrThrow(
      request,
      {},
      { wholeMaxBytes: readFileLimits.maxMediaBytes, maxBytes: 0, allowBinary: true },
    );
    if (whole.kind === 'whole') return mediaResult(request, media, whole.bytes);
  }
  if (media || slice.head.includes(0)) return binaryResult(request, slice.size, slice.head, revision);
  const firstLineCut =
    slice.bytes.length >= request.textBudget &&
    !slice.bytes.includes(0x0a) &&
    slice.start + slice.bytes.length < slice.size;
  const firstLineBytes = firstLineCut
    ? await measureLine(request.client, request.path, slice.start, request.signal)
    : undefined;
  const window = formatTextWindow({
    bytes: slice.bytes,
    start: slice.start,
    startLine: slice.startLine ?? 1,
    fileSize: slice.size,
    maxLines,
    maxTextBytes: request.textBudget,
    maxLineChars: readFileLimits.maxLineChars,
    lineNumbers: input.lineNumbers ?? true,
    ...(firstLineBytes === undefined ? {} : { firstLineBytes }),
  });
  const reachedEnd = window.next === null;
  return textResult(request, input, window, {
    size: slice.size,
    revision,
    totalLines: reachedEnd ? window.endLine : null,
    lineEnding: window.lineEnding,
  });
}

function wholeText(
  request: ReadRequest,
  input: ReadFileInput,
  bytes: Uint8Array,
  maxLines: number,
): ReadFileOutput {
  const totalLines = countLines(bytes);
  let start = input.byteOffset ?? 0;
  let startLine = input.offset ?? 1;
  if (start > bytes.length) throw pastEnd(request.shown, input, bytes.length, totalLines);
  if (input.byteOffset === undefined) {
    if (startLine > 1 && startLine > totalLines)
      throw pastEnd(request.shown, input, bytes.length, totalLines);
    start = lineStart(bytes, startLine);
  } else if (input.offset === undefined) {
    startLine = countNewlines(bytes, start) + 1;
  }
  const window = formatTextWindow({
    bytes: bytes.subarray(start),
    start,
    startLine,
    fileSize: bytes.length,
    maxLines,
    maxTextBytes: request.textBudget,
    maxLineChars: readFileLimits.maxLineChars,
    lineNumbers: input.lineNumbers ?? true,
  });
  return textResult(request, input, window, {
    size: bytes.length,
    revision: contentRevision(bytes),
    totalLines,
    lineEnding: detectLineEnding(bytes),
  });
}

function textResult(
  request: ReadRequest,
  input: ReadFileInput,
  window: ReturnType<typeof formatTextWindow>,
  file: {
    size: number;
    revision: string | null;
    totalLines: number | null;
    lineEnding: 'lf' | 'crlf' | 'mixed' | null;
  },
): ReadFileOutput {
  const startLine = window.endLine - window.linesShown + 1;
  const truncated =
    window.clippedLines.length > 0 ||
    window.stoppedEarly ||
    (input.limit === undefined && window.next !== null);
  const notice =
    window.invalidUtf8At === null
      ? undefined
      : `not valid UTF-8 at byte ${window.invalidUtf8At}; shown with replacement characters (U+FFFD). edit_file cannot match those bytes: keep them outside oldText.`;
  return {
    kind: 'text',
    path: request.shown,
    content: window.text,
    startLine,
    endLine: window.endLine,
    totalLines: file.totalLines,
    truncated,
    ...(window.next ? { nextOffset: window.next.offset, nextByteOffset: window.next.byteOffset } : {}),
    size: file.size,
    revision: file.revision,
    lineEnding: file.lineEnding,
    bom: window.bom,
    ...(notice ? { notice } : {}),
  };
}

async function readBytes(request: ReadRequest, input: ReadFileInput): Promise<ReadFileOutput> {
  const maxRaw = Math.floor((request.textBudget * 3) / 4 / 3) * 3;
  const slice = await sliceOrThrow(request, input, {
    wholeMaxBytes: -1,
    maxBytes: maxRaw,
    allowBinary: true,
  });
  if (slice.kind === 'past-end') throw pastEnd(request.shown, input, slice.size, slice.totalLines);
  if (slice.kind !== 'window')
    throw new ToolError({
      code: SandkitErrorCode.internal,
      message: `unexpected ${slice.kind} read of ${request.shown}`,
    });
  const end = slice.start + slice.bytes.length;
  return {
    kind: 'bytes',
    path: request.shown,
    encoding: 'base64',
    content: Buffer.from(slice.bytes).toString('base64'),
    byteOffset: slice.start,
    byteLength: slice.bytes.length,
    size: slice.size,
    truncated: end < slice.size,
    ...(end < slice.size ? { nextByteOffset: end } : {}),
    revision: revisionFromDigest(slice.digest ?? ''),
  };
}

async function sliceOrThrow(
  request: ReadRequest,
  input: Pick<ReadFileInput, 'offset' | 'byteOffset'>,
  shape: { wholeMaxBytes: number; maxBytes: number; allowBinary: boolean },
): Promise<Exclude<FileSlice, { kind: 'missing' | 'directory' | 'special' | 'unreadable' }>> {
  const slice = await readFileSlice(request.client, {
    path: request.path,
    digestMaxBytes: maxRevisionBytes,
    line: input.offset ?? null,
    byteOffset: input.byteOffset ?? null,
    ...shape,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (slice.kind === 'missing') throw fileNotFound(request.shown);
  if (slice.kind === 'directory') throw isDirectory(request.shown);
  if (slice.kind === 'special' || slice.kind === 'unreadable')
    throw notRegularFile(request.shown, slice.kind);
  return slice;
}

function mediaResult(request: ReadRequest, mediaType: MediaType, bytes: Uint8Array): ReadFileOutput {
  return {
    kind: 'media',
    path: request.shown,
    mediaType,
    data: Buffer.from(bytes).toString('base64'),
    size: bytes.length,
    revision: contentRevision(bytes),
  };
}

function binaryResult(
  request: ReadRequest,
  size: number,
  head: Uint8Array,
  revision: string | null,
): ReadFileOutput {
  const typeGuess = guessBinaryType(head);
  const media = sniffMediaType(head);
  const why = media
    ? `${media} larger than the ${readFileLimits.maxMediaBytes / 1024 / 1024} MiB media limit`
    : 'binary (it has NUL bytes)';
  return {
    kind: 'binary',
    path: request.shown,
    size,
    typeGuess,
    revision,
    message: `${request.shown} is ${why}: ${size} bytes, looks like ${typeGuess}. Not shown as text; read raw bytes with encoding="base64" and byteOffset if you need them.`,
  };
}

function pastEnd(
  path: string,
  input: Pick<ReadFileInput, 'offset' | 'byteOffset'>,
  size: number,
  totalLines: number | null,
): ToolError {
  const asked = input.byteOffset === undefined ? `offset ${input.offset}` : `byteOffset ${input.byteOffset}`;
  const lines = totalLines === null ? '' : `${totalLines} lines, `;
  return new ToolError({
    code: SandkitErrorCode.invalidArguments,
    message: `${asked} is past the end of ${path} (${lines}${size} bytes); read from offset 1${totalLines ? ` to ${totalLines}` : ''} instead`,
    details: { path, size, totalLines },
  });
}
