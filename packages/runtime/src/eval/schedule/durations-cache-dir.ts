/**
 * Where the durations cache lives (`durationsCache`, `--durations-cache`, `--no-durations-cache`,
 * `SANDKIT_DURATIONS_CACHE`).
 * @module
 */
import { join, resolve } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/**
 * The cache directory: `option` when a path, off when `false`; else `$SANDKIT_DURATIONS_CACHE`
 * (`off` turns the cache off), else `<cacheHome>/sandkit/durations`. Absolute, or `null` when off.
 * @throws SandkitError `invalid_option` for an empty path.
 */
export function resolveDurationsCacheDir(
  option: string | false | undefined,
  cacheHome: string,
): string | null {
  if (option === false) return null;
  if (option === '')
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: '--durations-cache must be a directory; to turn the cache off, use --no-durations-cache',
    });
  if (option !== undefined) return resolve(option);
  const fromEnv = process.env.SANDKIT_DURATIONS_CACHE;
  if (fromEnv === 'off') return null;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return resolve(join(cacheHome, 'sandkit', 'durations'));
}
