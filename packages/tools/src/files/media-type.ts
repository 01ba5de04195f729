/**
 * Media and binary type detection by file extension and by the first bytes ("magic numbers").
 * @module
 */
import { posix } from 'node:path';

/** Media types read_file returns as image or document content. */
export type MediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'application/pdf';

const byExtension: Record<string, MediaType> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

/** The media type a path's extension promises (case-insensitive), or `null`. */
export function mediaTypeFromPath(path: string): MediaType | null {
  return byExtension[posix.extname(path).toLowerCase()] ?? null;
}

/** The media type of `head` (a file's first bytes, 12 are enough) by its signature, or `null`. */
export function sniffMediaType(head: Uint8Array): MediaType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

const binarySignatures: [number[], string][] = [
  [[0x7f, 0x45, 0x4c, 0x46], 'ELF executable'],
  [[0x50, 0x4b, 0x03, 0x04], 'zip archive (or jar/docx/xlsx)'],
  [[0x1f, 0x8b], 'gzip data'],
  [[0x42, 0x5a, 0x68], 'bzip2 data'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz data'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'zstd data'],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], '7-zip archive'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'SQLite database'],
  [[0x00, 0x61, 0x73, 0x6d], 'WebAssembly module'],
  [[0xca, 0xfe, 0xba, 0xbe], 'Java class or Mach-O universal binary'],
  [[0xcf, 0xfa, 0xed, 0xfe], 'Mach-O executable'],
  [[0x4d, 0x5a], 'Windows executable'],
  [[0x00, 0x00, 0x01, 0x00], 'Windows icon'],
  [[0x7b, 0x5c, 0x72, 0x74, 0x66], 'RTF document'],
];

/** A human guess of what a binary file is from its first bytes (for example `gzip data`). */
export function guessBinaryType(head: Uint8Array): string {
  const media = sniffMediaType(head);
  if (media) return media;
  if (ascii(head, 257, 262) === 'ustar') return 'tar archive';
  if (startsWith(head, [0xff, 0xfe]))
    return 'UTF-16LE text (read it with encoding="base64" or convert it with iconv through exec)';
  if (startsWith(head, [0xfe, 0xff]))
    return 'UTF-16BE text (read it with encoding="base64" or convert it with iconv through exec)';
  for (const [signature, name] of binarySignatures) if (startsWith(head, signature)) return name;
  return 'unknown binary data';
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return bytes.length >= end ? String.fromCharCode(...bytes.subarray(start, end)) : '';
}
