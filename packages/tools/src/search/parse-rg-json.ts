/**
 * Parser for ripgrep's JSON Lines output (`rg --json`, see ripgrep's `grep-printer` crate docs,
 * "JSON"): one object per line of type `begin`, `match`, `context`, `end` or `summary`. Paths and
 * lines are `{ "text": … }` when valid UTF-8, else `{ "bytes": <base64> }`.
 * @module
 */

/** A line of a file, as ripgrep reported it. */
export interface SearchRecord {
  /** Path as printed by the search program, `./` prefix removed. */
  path: string;
  /** 1-based line number. */
  line: number;
  kind: 'match' | 'context';
  /** The line without its line ending (invalid UTF-8 shown as U+FFFD). */
  text: string;
}

const decoder = new TextDecoder();

/**
 * Parses one line of `rg --json` output into a {@link SearchRecord}, or `undefined` for `begin`,
 * `end`, `summary`, blank lines and anything that is not a ripgrep message. Never throws.
 */
export function parseRgJsonLine(line: string): SearchRecord | undefined {
  if (!line.startsWith('{"type":"match"') && !line.startsWith('{"type":"context"')) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (
    !isObject(message) ||
    (message.type !== 'match' && message.type !== 'context') ||
    !isObject(message.data)
  )
    return undefined;
  const { path, lines, line_number: lineNumber } = message.data;
  const pathText = arbitraryData(path);
  const text = arbitraryData(lines);
  if (pathText === undefined || text === undefined || typeof lineNumber !== 'number') return undefined;
  return {
    path: withoutDotSlash(pathText),
    line: lineNumber,
    kind: message.type,
    text: withoutLineEnding(text),
  };
}

/** ripgrep's "arbitrary data": `{ text }` or `{ bytes }` (base64). */
function arbitraryData(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.text === 'string') return value.text;
  if (typeof value.bytes === 'string') return decoder.decode(Buffer.from(value.bytes, 'base64'));
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Removes a leading `./` (search programs print it for paths under the `.` argument). */
export function withoutDotSlash(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/** Removes one trailing `\n` or `\r\n`. */
export function withoutLineEnding(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
