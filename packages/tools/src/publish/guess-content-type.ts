/**
 * The media type a published file is served with, when the caller gives none: the bytes' signature
 * first (a PNG named `report.txt` is still a PNG), then the name's extension (the `mime-types`
 * package over mime-db), then UTF-8 text or `application/octet-stream`.
 * @module
 */
import mime from 'mime-types';
import { sniffMediaType } from '../files/media-type.js';

/** Served when nothing is known of a file that is not UTF-8 text. */
export const octetStream = 'application/octet-stream';

/**
 * Guesses the `Content-Type` of a file from its name and its first bytes.
 * @param filename the name it is published under (only its extension is used)
 * @param head the file's first bytes (64 KiB is plenty; fewer for a smaller file)
 * @returns a media type; text types carry `; charset=utf-8` when the bytes are UTF-8
 */
export function guessContentType(filename: string, head: Uint8Array): string {
  const sniffed = sniffMediaType(head);
  if (sniffed) return sniffed;
  const text = isUtf8Text(head);
  const byName = mime.lookup(filename);
  if (byName) {
    // mime-types adds charset=utf-8 to text/* and a few others; only say so when it is true
    const full = mime.contentType(byName) || byName;
    return text ? full : full.replace(/;\s*charset=[^;]+/i, '');
  }
  return text ? 'text/plain; charset=utf-8' : octetStream;
}

/** `true` for well-formed UTF-8 without NUL bytes (a character cut at the end of `head` is fine). */
function isUtf8Text(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}
