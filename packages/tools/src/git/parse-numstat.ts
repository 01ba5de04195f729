/**
 * Parser for `git diff --numstat -z` (git-diff(1), "Other diff formats" / `--numstat`).
 *
 * Each record is `ADDED\tDELETED\tPATH\0`; with rename or copy detection a record is
 * `ADDED\tDELETED\t\0OLD\0NEW\0` (empty path field, then the two paths). `-` for both counts
 * means a binary file. With `-z` git never quotes paths, so they are taken byte for byte.
 * @module
 */

/** One file of a numstat listing. */
export interface NumstatEntry {
  /** Path after the change (the new path of a rename). */
  path: string;
  /** Path before a rename or copy; absent otherwise. */
  oldPath?: string;
  /** Lines added, or -1 for a binary file. */
  additions: number;
  /** Lines deleted, or -1 for a binary file. */
  deletions: number;
  /** `true` when git printed `-` counts (a binary file). */
  binary: boolean;
}

const countsPattern = /^(\d+|-)\t(\d+|-)\t/;

/**
 * Parses the whole stdout of `git diff --numstat -z`. Malformed records (no counts) are skipped,
 * and a record cut short at the end (a capped output) is dropped. Never throws.
 */
export function parseNumstatZ(text: string): NumstatEntry[] {
  const fields = text.split('\0');
  const entries: NumstatEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    const counts = countsPattern.exec(field);
    if (!counts) continue;
    const [, added = '', deleted = ''] = counts;
    const binary = added === '-' || deleted === '-';
    const numbers = {
      additions: binary ? -1 : Number(added),
      deletions: binary ? -1 : Number(deleted),
      binary,
    };
    const path = field.slice(counts[0].length);
    if (path !== '') {
      // the last field is complete only when a NUL followed it
      if (i < fields.length - 1) entries.push({ path, ...numbers });
      continue;
    }
    const oldPath = fields[i + 1];
    const newPath = fields[i + 2];
    if (oldPath === undefined || newPath === undefined || i + 2 >= fields.length - 1) break;
    entries.push({ path: newPath, oldPath, ...numbers });
    i += 2;
  }
  return entries;
}
