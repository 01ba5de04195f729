/**
 * Turns a window of file bytes into the numbered text read_file shows: at most `maxLines` lines,
 * at most `maxTextBytes` bytes, each line clipped at `maxLineChars` characters with a marker that
 * gives the byte offset to continue from. Pure: byte offsets in, text and continuations out.
 * @module
 */
import { utf8Boundary } from '@sandkit/core';
import { findInvalidUtf8 } from './invalid-utf8.js';
import { detectLineEnding, type LineEnding } from './line-endings.js';

/** A window of a file and how to show it. */
export interface TextWindowInput {
  /** The window's bytes. */
  bytes: Uint8Array;
  /** Absolute byte offset of `bytes[0]` in the file. */
  start: number;
  /** 1-based number of the line `bytes[0]` belongs to. */
  startLine: number;
  /** Size of the whole file, in bytes. */
  fileSize: number;
  maxLines: number;
  /** Budget, in UTF-8 bytes, of the returned text (markers included). */
  maxTextBytes: number;
  /** Characters (code points) shown of one line before it is clipped. */
  maxLineChars: number;
  /** Prefix each line with `N\t`. */
  lineNumbers: boolean;
  /** Byte length (without its `\n`) of the first line, when `bytes` holds only part of it. */
  firstLineBytes?: number;
}

/** What {@link formatTextWindow} shows. */
export interface TextWindow {
  text: string;
  /** Lines shown; `endLine = startLine + linesShown - 1`. */
  linesShown: number;
  endLine: number;
  /** Numbers of the lines clipped with a marker. */
  clippedLines: number[];
  /** `true` when the byte budget or a cut window stopped the output before `maxLines`. */
  stoppedEarly: boolean;
  /** Where to continue, when the file goes on after what was shown. */
  next: { offset: number; byteOffset: number } | null;
  /** `true` when the window started at byte 0 with a UTF-8 byte order mark (not shown). */
  bom: boolean;
  /** Absolute offset of the first byte shown that is not valid UTF-8, or `null`. */
  invalidUtf8At: number | null;
  /** Line ending of the lines shown. */
  lineEnding: LineEnding | null;
}

const decoder = new TextDecoder('utf-8');
const markerReserve = 160;

/** Formats `input` (see {@link TextWindowInput}); never throws on any byte content. */
export function formatTextWindow(input: TextWindowInput): TextWindow {
  const { bytes, start } = input;
  const endsAtEof = start + bytes.length >= input.fileSize;
  const bom = start === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let pos = bom ? 3 : 0;
  const parts: string[] = [];
  const clippedLines: number[] = [];
  let used = 0;
  let shown = 0;
  let stoppedEarly = false;
  let invalidUtf8At: number | null = null;
  let continueInside: number | null = null;
  while (shown < input.maxLines && pos < bytes.length) {
    const lineNo = input.startLine + shown;
    const newline = bytes.indexOf(0x0a, pos);
    const complete = newline !== -1 || endsAtEof;
    if (!complete && shown > 0) {
      stoppedEarly = true;
      break;
    }
    const lineEnd = newline === -1 ? bytes.length : newline;
    const contentEnd = newline !== -1 && lineEnd > pos && bytes[lineEnd - 1] === 0x0d ? lineEnd - 1 : lineEnd;
    const prefix = input.lineNumbers ? `${lineNo}\t` : '';
    let keepEnd = clipByChars(bytes, pos, contentEnd, input.maxLineChars);
    let text = decoder.decode(bytes.subarray(pos, keepEnd));
    const room = input.maxTextBytes - used - prefix.length - 1;
    if (Buffer.byteLength(text) > room - (keepEnd < contentEnd ? markerReserve : 0)) {
      if (shown > 0) {
        stoppedEarly = true;
        break;
      }
      ({ keepEnd, text } = clipByBytes(bytes, pos, keepEnd, Math.max(0, room - markerReserve)));
      stoppedEarly = keepEnd < contentEnd;
    }
    const clipped = keepEnd < contentEnd || !complete;
    let line = prefix + text;
    if (clipped) {
      const total = complete ? contentEnd - pos : (input.firstLineBytes ?? `at least ${bytes.length - pos}`);
      line += ` [line ${lineNo} truncated: showed ${keepEnd - pos} of ${total} bytes; continue with byteOffset=${start + keepEnd}]`;
      clippedLines.push(lineNo);
    }
    const invalid = findInvalidUtf8(bytes, pos, keepEnd);
    if (invalid !== -1 && invalidUtf8At === null) invalidUtf8At = start + invalid;
    parts.push(line);
    used += Buffer.byteLength(line) + 1;
    shown++;
    continueInside = clipped ? keepEnd : null;
    pos = newline === -1 ? bytes.length : newline + 1;
    if (stoppedEarly) break;
  }
  const endLine = input.startLine + shown - 1;
  let next: TextWindow['next'] = null;
  if (continueInside !== null) next = { offset: endLine, byteOffset: start + continueInside };
  else if (start + pos < input.fileSize) next = { offset: endLine + 1, byteOffset: start + pos };
  return {
    text: parts.join('\n'),
    linesShown: shown,
    endLine,
    clippedLines,
    stoppedEarly,
    next,
    bom,
    invalidUtf8At,
    lineEnding: detectLineEnding(bytes, 0, pos),
  };
}

/** End of the first `maxChars` characters of `bytes[start, end)` (invalid bytes count as one). */
export function clipByChars(bytes: Uint8Array, start: number, end: number, maxChars: number): number {
  let i = start;
  for (let chars = 0; chars < maxChars && i < end; chars++) {
    const b = bytes[i] ?? 0;
    let length = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 1;
    for (let k = 1; k < length; k++) {
      if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80 || i + k >= end) {
        length = 1;
        break;
      }
    }
    i += length;
  }
  return i;
}

function clipByBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  maxBytes: number,
): { keepEnd: number; text: string } {
  let keepEnd = utf8Boundary(bytes.subarray(0, end), Math.min(end, start + maxBytes));
  let text = decoder.decode(bytes.subarray(start, keepEnd));
  // Invalid bytes widen to 3-byte U+FFFD when decoded: shrink until the text fits.
  while (Buffer.byteLength(text) > maxBytes && keepEnd > start) {
    keepEnd = Math.max(start, utf8Boundary(bytes, keepEnd - (Buffer.byteLength(text) - maxBytes)));
    text = decoder.decode(bytes.subarray(start, keepEnd));
  }
  return { keepEnd, text };
}
