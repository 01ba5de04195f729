/**
 * Turns raw runner output into clean lines: ANSI escape sequences (CSI colours and OSC links)
 * removed with `strip-ansi`, CRLF normalised, and a line rewritten in place with `\r` (progress
 * bars) reduced to what a terminal would finally show.
 * @module
 */
import stripAnsi from 'strip-ansi';

const escapeChars = /[\u001b\u009b]/;

/** Removes ANSI escape sequences (CSI and OSC), skipping the work when there are none. */
export function stripAnsiCodes(text: string): string {
  return escapeChars.test(text) ? stripAnsi(text) : text;
}

/** Splits output into lines as a terminal would show them. Pure; never throws. */
export function outputLines(text: string): string[] {
  const lines = stripAnsiCodes(text).split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (!line.includes('\r')) continue;
    const parts = line.split('\r');
    let shown = '';
    for (let part = parts.length - 1; part >= 0; part--) {
      if ((parts[part] as string) !== '') {
        shown = parts[part] as string;
        break;
      }
    }
    lines[index] = shown;
  }
  return lines;
}
