/**
 * Finds evaluation logs in the official layout: `<instance_id>/test_output.txt`, with optional
 * `patch.diff` and `report.json` beside it, at any depth (the harness writes
 * `logs/run_evaluation/<run_id>/<model>/<instance_id>/`, see `run_instance` in
 * `swebench/harness/run_evaluation.py`, SWE-bench v4.1.0, commit
 * 726c5461e2ef52d83cf1ea2107870a8bb3328d57). sandkit's own `--out` layout
 * (`instances/<instance_id>/`) is the same shape.
 * @module
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** One instance's log directory. */
export interface FoundLog {
  instanceId: string;
  /** The directory above the instance's (the official `<model>`). */
  model: string;
  dir: string;
  /** `test_output.txt` there is a directory, not a log: nothing to grade, and the caller says so. */
  logIsDirectory: boolean;
  /**
   * What `test_output.txt` there is when it is neither a regular file nor a directory (`a FIFO`,
   * `a symlink to a character device`, `a symlink that cannot be followed (ENOENT)`): it is not opened (a FIFO would block,
   * a device never ends), and the caller says so on the instance's row. Absent otherwise.
   */
  logNotRegular?: string;
}

/** A directory under the logs root that could not be listed (its logs, if any, are not found). */
export interface UnreadableDir {
  dir: string;
  /** The `readdir` error's message (`EACCES: permission denied, scandir …`). */
  message: string;
}

/**
 * Every directory holding a `test_output.txt` (a file, or a symlink to one), or an empty
 * `patch.diff` (an empty patch: the harness runs no test for it, so no log is written), sorted by
 * path. A `test_output.txt` that is a directory is returned with `logIsDirectory` (and not
 * searched); one that is anything else (a FIFO, a socket, a device, a symlink to one, a symlink
 * that cannot be followed) with `logNotRegular`, unopened. When one instance id appears in several directories (several runs or models under
 * DIR), all are returned; the caller decides. A directory below `root` that cannot be listed
 * (no permission, removed during the walk) is passed to `onUnreadable` and skipped.
 * @throws the `readdir` error (`NodeJS.ErrnoException`) when `root` itself cannot be listed
 */
export async function findLogs(
  root: string,
  onUnreadable: (unreadable: UnreadableDir) => void = () => {},
): Promise<FoundLog[]> {
  const found: FoundLog[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (dir === root) throw error;
      onUnreadable({ dir, message: (error as Error).message });
      return;
    }
    /** `file`, `directory`, `null` (no such entry) or what else it is (`a FIFO`, …). */
    const kindOf = async (name: string): Promise<string | null> => {
      const entry = entries.find((candidate) => candidate.name === name);
      if (entry === undefined) return null;
      const link = entry.isSymbolicLink();
      const target = link
        ? await stat(join(dir, name)).catch((error: NodeJS.ErrnoException) => error.code ?? 'error')
        : entry;
      if (typeof target === 'string') return `a symlink that cannot be followed (${target})`;
      if (target.isFile()) return 'file';
      if (target.isDirectory()) return 'directory';
      return `${link ? 'a symlink to ' : ''}${specialKind(target)}`;
    };
    const log = await kindOf('test_output.txt');
    if (
      log !== null ||
      ((await kindOf('patch.diff')) === 'file' && (await isBlank(join(dir, 'patch.diff'))))
    ) {
      const one: FoundLog = {
        instanceId: basename(dir),
        model: basename(dirname(dir)),
        dir,
        logIsDirectory: log === 'directory',
      };
      if (log !== null && log !== 'file' && log !== 'directory') one.logNotRegular = log;
      found.push(one);
    }
    await Promise.all(
      entries
        .filter((entry) => entry.isDirectory() && entry.name !== 'test_output.txt')
        .map((entry) => walk(join(dir, entry.name))),
    );
  };
  await walk(root);
  return found.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/** What a file that is neither a regular file nor a directory is, with its article. */
function specialKind(
  entry: Pick<Dirent, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>,
): string {
  if (entry.isFIFO()) return 'a FIFO';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** Whether the file holds only whitespace (an empty model patch). */
async function isBlank(path: string): Promise<boolean> {
  // An unreadable patch.diff is not known to be empty; the log beside it (if any) is still found.
  return (await readFile(path, 'utf8').catch(() => 'unreadable')).trim() === '';
}
