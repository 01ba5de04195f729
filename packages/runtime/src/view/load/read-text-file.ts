/**
 * Reads a file a report shows, if it is there: `null` for a file that does not exist, its text
 * (UTF-8, invalid bytes replaced) otherwise.
 * @module
 */
import { readFile } from 'node:fs/promises';

/**
 * @param problems where a file that exists but cannot be read (no permission, a directory) is
 *   named with its error code, and `null` returned; without it, that error is thrown
 * @throws Error (from `fs`) for anything but a missing file, when `problems` is not given.
 */
export async function readTextFile(file: string, problems?: string[]): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (problems === undefined) throw error;
    problems.push(`${file} cannot be read (${code ?? (error as Error).message}): not shown`);
    return null;
  }
}
