/**
 * `decodeUtf8`: a log's bytes as the text `readFileSync(file, 'utf8')` gives, cheaper for the
 * all-ASCII logs that test runs nearly always print.
 * @module
 */
import { isAscii } from 'node:buffer';

/**
 * `bytes` as UTF-8 text, the same string `readFileSync(file, 'utf8')` gives: all-ASCII bytes (a
 * test log, nearly always) are copied as Latin-1, which is the same text without UTF-8 decoding
 * (a 200 KB log: 0.2-0.3 ms of CPU read as UTF-8, about half that read and copied); others decoded
 * as UTF-8 (an invalid sequence becomes U+FFFD, as there).
 */
export function decodeUtf8(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}
