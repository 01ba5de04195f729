/**
 * read_file: a window of a text file with line numbers, raw bytes as base64, or an image / PDF as
 * media. The window is cut inside the sandbox (`tail -c`, `head -n`, `awk` to find a line; see
 * file-slice.ts), so reading near the end of a huge file moves only the window. Never throws on
 * encodings: invalid UTF-8 is shown with U+FFFD and a notice giving the first bad byte.
 * @module
 */
import {
  defineTool,
  type SandboxClient,
  SandkitErrorCode,
  type Tool,
  type ToolContent,
  ToolError,
} from '@sandkit/core';
import { z } from 'zod';
import { type CodingToolOptions, normalizeCodingToolOptions } from './coding-tool-options.js';
import { contentRevision, maxRevisionBytes, revisionFromDigest } from './content-revision.js';
import { fileNotFound, isDirectory, notRegularFile } from './file-tool-errors.js';
import { type FileSlice, measureLine, readFileSlice } from './file-slice.js';
import { detectLineEnding } from './line-endings.js';
import { guessBinaryType, type MediaType, mediaTypeFromPath, sniffMediaType } from './media-type.js';
import { resolveToolPath } from './resolve-path.js';
import { formatTextWindow } from './text-window.js';

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

/** Options of {@link createReadFileTool}. */
export interface ReadFileToolOptions extends CodingToolOptions {}

const description = `Read a file in the workspace.
Text comes back with line numbers ("N<TAB>line"); at most ${readFileLimits.maxLines} lines and ${readFileLimits.maxBytes / 1024} KiB per call, and a line longer than ${readFileLimits.maxLineChars} characters is clipped with a marker "[line N truncated: showed X of Y bytes; continue with byteOffset=Z]".
- offset: 1-based line to start at; limit: number of lines. Omit both to read from the start.
- When the result is cut it has nextOffset and nextByteOffset: pass BOTH back (offset=nextOffset, byteOffset=nextByteOffset) to continue without rescanning the file. To see the rest of a clipped line, pass offset=N and the marker's byteOffset.
- totalLines is null when unknown (a far window of a large file is read without counting the whole file).
- revision identifies the file content: pass it to edit_file as expectedRevision.
- lineEnding says "crlf" for Windows line endings; text is shown without the "\\r", and edit_file matches it either way.
- Images (png, jpeg, gif, webp) and PDF files come back as media (up to 3.5 MiB). Other binary files are described (size, type), not dumped; read their bytes with encoding="base64" (byteOffset pages through them).
- Bytes that are not valid UTF-8 are shown as U+FFFD with a notice; edit_file cannot match those bytes, so keep them outside oldText.
Errors: "not_found" (check the path with list_files or find_files), "is_directory" (use list_files), "outside_root" (use a path inside the workspace), offset past the end (the message gives the line count).`;

const inputSchema = z.object({
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

const outputSchema = z.discriminatedUnion('kind', [
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

type ReadFileInput = z.output<typeof inputSchema>;
type ReadFileOutput = z.input<typeof outputSchema>;

/**
 * Creates the read_file tool (permission `read`).
 * @throws SandkitError `invalid_option` from {@link normalizeCodingToolOptions} on bad options.
 */
export function createReadFileTool(
  client: SandboxClient,
  options: ReadFileToolOptions = {},
): Tool<typeof inputSchema, typeof outputSchema> {
  const context = normalizeCodingToolOptions(client, options);
  const textBudget = Math.min(readFileLimits.maxBytes, context.maxOutputBytes - readFileLimits.statusReserve);
  return defineTool({
    name: 'read_file',
    description,
    inputSchema,
    outputSchema,
    permission: 'read',
    async execute(input, { signal }) {
      const resolved = await resolveToolPath(context, input.path);
      const request = { client, path: resolved.absolute, shown: resolved.relative, textBudget, signal };
      return input.encoding === 'base64' ? readBytes(request, input) : readText(request, input);
    },
    toContent: (output) => toContent(output),
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
  const slice = await sliceOrThrow(request, input, { wholeMaxBytes: 0, maxBytes: maxRaw, allowBinary: true });
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

/** Lines in `bytes`: newlines, plus one for a last line without a newline. */
function countLines(bytes: Uint8Array): number {
  const newlines = countNewlines(bytes, bytes.length);
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? newlines + 1 : newlines;
}

function countNewlines(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < end; i = bytes.indexOf(0x0a, i + 1)) count++;
  return count;
}

/** Byte offset where 1-based `line` starts (the end of `bytes` when it has fewer lines). */
function lineStart(bytes: Uint8Array, line: number): number {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline === -1) return bytes.length;
    start = newline + 1;
  }
  return start;
}

function toContent(output: z.output<typeof outputSchema>): ToolContent[] {
  switch (output.kind) {
    case 'media':
      return output.mediaType === 'application/pdf'
        ? [{ type: 'document', mediaType: 'application/pdf', data: output.data, title: output.path }]
        : [
            { type: 'image', mediaType: output.mediaType, data: output.data },
            { type: 'text', text: `${output.path}: ${output.mediaType}, ${output.size} bytes` },
          ];
    case 'binary':
      return [{ type: 'text', text: output.message }];
    case 'bytes':
      return [{ type: 'text', text: `${output.content}\n${statusLine(output)}` }];
    case 'text':
      return [
        {
          type: 'text',
          text: output.content === '' ? statusLine(output) : `${output.content}\n${statusLine(output)}`,
        },
      ];
  }
}

function statusLine(output: z.output<typeof outputSchema>): string {
  const facts: string[] = [];
  if (output.kind === 'bytes') {
    facts.push(
      `base64 of bytes ${output.byteOffset}-${output.byteOffset + output.byteLength} of ${output.size}`,
    );
    if (output.nextByteOffset !== undefined)
      facts.push(`more: call read_file with encoding="base64" byteOffset=${output.nextByteOffset}`);
  } else if (output.kind === 'text') {
    const total = output.totalLines === null ? `${output.size} bytes` : `${output.totalLines} lines`;
    facts.push(
      output.endLine < output.startLine
        ? `no lines shown (of ${total})`
        : `lines ${output.startLine}-${output.endLine} of ${total}`,
    );
    if (output.lineEnding && output.lineEnding !== 'lf') facts.push(`line endings ${output.lineEnding}`);
    if (output.bom) facts.push('UTF-8 BOM');
    if (output.notice) facts.push(output.notice);
    if (output.nextOffset !== undefined)
      facts.push(`more: call read_file with offset=${output.nextOffset} byteOffset=${output.nextByteOffset}`);
  }
  if (output.revision) facts.push(`revision ${output.revision}`);
  return `[${facts.join('; ')}]`;
}
