/**
 * File names in unified-diff headers: `--- NAME[\tTIMESTAMP]` lines (C-quoted or plain, up to a TAB,
 * a trailing timestamp dropped) and the two names of a `diff --git a/X b/Y` line, as GNU patch and
 * git read them. Never throw.
 * @module
 */
import { unquoteGitPath } from './unquote-git-path.js';

const timestamp = /\s+\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?( ?[+-]\d{4})?$/;

/** The name in a `---`/`+++` line: C-quoted or up to a TAB, without a trailing timestamp. */
export function headerName(rest: string): string {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    if (end > 0) return unquoteGitPath(rest.slice(0, end + 1));
  }
  const tab = rest.indexOf('\t');
  const name = tab >= 0 ? rest.slice(0, tab) : rest.replace(timestamp, '');
  return name.replace(/\s+$/, '');
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** Splits the `a/x b/y` of a `diff --git` line (quoted names, or two equal halves with spaces). */
export function splitGitHeaderNames(rest: string): [string, string] | undefined {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    if (end < 0) return undefined;
    const second = rest.slice(end + 2);
    return [unquoteGitPath(rest.slice(0, end + 1)), unquoteGitPath(second)];
  }
  const quoted = rest.indexOf(' "');
  if (quoted > 0) return [rest.slice(0, quoted), unquoteGitPath(rest.slice(quoted + 1))];
  // unquoted names may contain spaces: the two halves name the same path when nothing was renamed
  const middle = (rest.length - 1) / 2;
  if (Number.isInteger(middle) && rest[middle] === ' ' && rest.slice(2, middle) === rest.slice(middle + 3)) {
    return [rest.slice(0, middle), rest.slice(middle + 1)];
  }
  const space = rest.indexOf(' b/');
  return space > 0 ? [rest.slice(0, space), rest.slice(space + 1)] : undefined;
}

/** `name` without its first `strip` components (patch's `-p`), or `undefined` when it has too few. */
export function stripPath(name: string, strip: number): string | undefined {
  if (strip === 0) return name;
  const parts = name.split('/').filter((part, i) => part !== '' || i === 0);
  if (parts.length <= strip) return undefined;
  return parts.slice(strip).join('/');
}
