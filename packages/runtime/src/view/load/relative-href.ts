/**
 * The link from a report to a file it names: a relative path when the file sits in the report's
 * own directory tree (so the link still works when the folder is moved or zipped), else `null`.
 * @module
 */
import { relative, sep } from 'node:path';

/** `file` relative to `reportDir` with `/` separators, or `null` when it lies outside. */
export function relativeHref(reportDir: string, file: string): string | null {
  const path = relative(reportDir, file);
  if (path === '' || path.startsWith('..') || path.startsWith(sep)) return null;
  return path.split(sep).join('/');
}
