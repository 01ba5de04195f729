/**
 * Reads a file a report shows, if it is there: `null` for a file that does not exist, its text
 * (UTF-8, invalid bytes replaced) otherwise.
 * @module
 */
import { readFile } from 'node:fs/promises';

/**
 * @throws Error (from `fs`) for anything but a missing file: a directory, no permission.
 */
export async function readTextFile(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
