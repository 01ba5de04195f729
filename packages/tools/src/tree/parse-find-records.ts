/**
 * Parser for the NUL-terminated records list_files asks `find` for (paths relative to the root):
 * `-printf '%P\t%y\t%s\t%T@\0'` (GNU findutils manual, "Format Directives"): the path relative to
 * the starting point, then the type letter, size in bytes and modification time in seconds since
 * the epoch. Names may hold tabs and newlines: the three fixed fields are taken from the right.
 * @module
 */

/** One entry of a listing. */
export interface FileEntry {
  /** Path relative to the listed directory. */
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  /** Size in bytes (for a symlink: the length of its target). */
  size: number;
  /** Modification time, ISO 8601 UTC. */
  mtime: string;
}

const kinds: Record<string, FileEntry['kind']> = { f: 'file', d: 'dir', l: 'symlink' };

/** Parses `find -printf '%P\t%y\t%s\t%T@\0'` output. Malformed or cut records are skipped. Never throws. */
export function parseFindRecords(text: string): FileEntry[] {
  const records = text.split('\0');
  records.pop(); // after the last NUL: empty, or a record cut short
  const entries: FileEntry[] = [];
  for (const record of records) {
    const fields = record.split('\t');
    if (fields.length < 4) continue;
    const mtime = Number(fields.pop());
    const size = Number(fields.pop());
    const type = fields.pop()!;
    const path = fields.join('\t');
    if (path === '' || !Number.isFinite(mtime) || !Number.isInteger(size) || size < 0 || type.length !== 1)
      continue;
    const date = new Date(Math.round(mtime * 1000));
    if (Number.isNaN(date.getTime())) continue;
    entries.push({ path, kind: kinds[type] ?? 'other', size, mtime: date.toISOString() });
  }
  return entries;
}
