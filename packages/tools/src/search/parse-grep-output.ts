/**
 * Parser for GNU grep's `-r -n -Z` output (grep manual, "Output Line Prefix Control"): each line
 * is `FILE NUL LINENO : TEXT` for a match or `FILE NUL LINENO - TEXT` for a context line, with
 * `--` lines between context groups. `-Z` ends the name with NUL, so names holding `:`, `-` or
 * newlines stay whole. The caller searches `.` or `./…`, so every name starts with `./` and a
 * `--` separator can never be mistaken for a name.
 * @module
 */
import { type SearchRecord, withoutDotSlash, withoutLineEnding } from './parse-rg-json.js';

/** What {@link parseGrepRecords} returns: complete records, and the unconsumed tail. */
export interface GrepParse {
  records: SearchRecord[];
  /** Text after the last complete record; prepend it to the next chunk. */
  rest: string;
}

const prefix = /^(\d+)([:-])/;

/**
 * Parses as many complete records as `buffer` holds. Malformed lines are skipped. Never throws.
 * Pass the whole output with `final: true` to also parse a last line that has no newline.
 */
export function parseGrepRecords(buffer: string, final = false): GrepParse {
  const records: SearchRecord[] = [];
  let at = 0;
  for (;;) {
    if (buffer.startsWith('--\n', at)) {
      at += 3;
      continue;
    }
    const nul = buffer.indexOf('\0', at);
    if (nul < 0) break;
    let newline = buffer.indexOf('\n', nul);
    if (newline < 0) {
      if (!final || nul + 1 >= buffer.length) break;
      newline = buffer.length;
    }
    const rest = buffer.slice(nul + 1, newline);
    const head = prefix.exec(rest);
    if (head) {
      records.push({
        path: withoutDotSlash(buffer.slice(at, nul)),
        line: Number(head[1]),
        kind: head[2] === ':' ? 'match' : 'context',
        text: withoutLineEnding(rest.slice(head[0].length)),
      });
    }
    at = newline + 1;
  }
  return { records, rest: buffer.slice(Math.min(at, buffer.length)) };
}
