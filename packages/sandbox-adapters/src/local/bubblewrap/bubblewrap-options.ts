/**
 * The bubblewrap options of the local adapter, checked and filled once.
 * @module
 */
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** What a bubblewrap sandbox may see and write besides its workspace. */
export interface BubblewrapOptions {
  /**
   * Host paths visible (read-only) inside the sandbox. Absent: the whole host file system, read-only,
   * except {@link hiddenPaths}. Given: only these, plus what a shell needs to run (`/usr`, `/bin`,
   * `/sbin`, `/lib*`, `/etc`) and the directory of this Node binary (the sandbox's exec server).
   * @default the whole host, read-only
   */
  readPaths?: readonly string[];
  /**
   * Host paths replaced by an empty directory (or an empty file) inside the sandbox: credentials.
   * Paths that do not exist are skipped.
   * @default ~/.ssh, ~/.gnupg, ~/.aws, ~/.azure, ~/.config/gcloud, ~/.kube, ~/.docker, ~/.netrc,
   *   ~/.git-credentials, ~/.npmrc, ~/.pypirc, ~/.config/gh
   */
  hiddenPaths?: readonly string[];
  /** Host paths the sandbox may write, besides its workspace (a cache directory, say). @default none */
  writePaths?: readonly string[];
  /** The bwrap binary: a path, or a name looked up on `PATH`. @default 'bwrap' */
  bwrapPath?: string;
}

/** {@link BubblewrapOptions} with every default filled, paths absolute. */
export interface NormalizedBubblewrapOptions {
  readonly readPaths: readonly string[] | undefined;
  readonly hiddenPaths: readonly string[];
  readonly writePaths: readonly string[];
  readonly bwrapPath: string;
}

/** The credential files and directories hidden by default, relative to the home directory. */
const defaultHidden = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.config/gh',
];

/**
 * @throws SandkitError `invalid_option` for a path list that is not an array of non-empty strings,
 *   or an empty `bwrapPath`.
 */
export function normalizeBubblewrapOptions(options: BubblewrapOptions = {}): NormalizedBubblewrapOptions {
  const home = homedir();
  const readPaths = options.readPaths === undefined ? undefined : paths('readPaths', options.readPaths);
  const hiddenPaths =
    options.hiddenPaths === undefined
      ? defaultHidden.map((path) => resolve(home, path))
      : paths('hiddenPaths', options.hiddenPaths);
  const writePaths = paths('writePaths', options.writePaths ?? []);
  const bwrapPath = options.bwrapPath ?? 'bwrap';
  if (typeof bwrapPath !== 'string' || bwrapPath === '')
    invalid(`bubblewrap.bwrapPath must be a non-empty string`);
  return { readPaths, hiddenPaths, writePaths, bwrapPath };
}

function paths(name: string, value: readonly string[]): string[] {
  if (!Array.isArray(value) || value.some((path) => typeof path !== 'string' || path === '')) {
    invalid(`bubblewrap.${name} must be an array of non-empty paths, got ${JSON.stringify(value)}`);
  }
  return value.map((path) => (isAbsolute(path) ? resolve(path) : resolve(process.cwd(), path)));
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
