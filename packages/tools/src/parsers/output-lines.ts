/**
 * Turns raw runner output into clean lines: ANSI escape sequences (CSI colours and OSC links)
 * removed with `strip-ansi`, CRLF normalised, and a line rewritten in place with `\r` (progress
 * bars) reduced to what a terminal would finally show.
 * @module
 */
import stripAnsi from 'strip-ansi';

/** Removes ANSI escape sequences (CSI and OSC), skipping the work when there are none. */
export function stripAnsiCodes(text: string): string {
  return text.includes('\u001b') || text.includes('\u009b') ? stripAnsi(text) : text;
}

/** Splits output into lines as a terminal would show them. Pure; never throws. */
export function outputLines(text: string): string[] {
  const clean = stripAnsiCodes(text);
  const lines = clean.split('\n');
  if (!clean.includes('\r')) return lines;
  for (let index = 0; index < lines.length; index++) lines[index] = shownPart(lines[index] as string);
  return lines;
}

/**
 * Calls `visit` with each line of ANSI-free `text`, as {@link outputLines} would give it, without
 * holding every line at once (a 50 MB log's lines then die young instead of filling the heap).
 * The `\r` case has its own loop: with the `shownPart` branch inside this one, V8 (Node 20) ran the
 * optimised loop in quadratic time (a 200 KB log 4.7 ms instead of 0.06 ms; a 5 MB log 5 ms until
 * the loop was optimised, then 9.5 s; 10 MB 42 s: the parse bench's 50 MB row never finished).
 */
export function forEachLine(text: string, visit: (line: string) => void): void {
  if (text.includes('\r')) {
    forEachShownLine(text, visit);
    return;
  }
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    visit(text.slice(start, end));
    start = end + 1;
  }
}

/** {@link forEachLine} for text holding `\r`: each line as {@link shownPart} reduces it. */
function forEachShownLine(text: string, visit: (line: string) => void): void {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    visit(shownPart(text.slice(start, end)));
    start = end + 1;
  }
}

/** What a terminal shows of a line rewritten with `\r`: its last non-empty part. */
function shownPart(line: string): string {
  if (!line.includes('\r')) return line;
  const parts = line.split('\r');
  for (let part = parts.length - 1; part >= 0; part--)
    if ((parts[part] as string) !== '') return parts[part] as string;
  return '';
}
