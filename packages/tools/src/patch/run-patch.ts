/**
 * Runs GNU patch for apply_diff. Exit codes (GNU patch manual, "patch Options"): 0 = every hunk
 * applied, 1 = some hunks could not be applied, 2 = serious trouble (malformed input, I/O error).
 * @module
 */
import { formatCommand, type SandboxClient } from '@sandkit/core';

/** Options of {@link runPatch}. */
export interface RunPatchOptions {
  /** Absolute directory the `-p1` names are relative to. */
  cwd: string;
  /** Context lines patch may ignore at each end of a hunk (`-F`), 0–3. */
  fuzz: number;
  /** `true` to only check (`--dry-run`): nothing is written. */
  dryRun: boolean;
  signal?: AbortSignal;
}

/** What patch did: its exit code (`null` when killed) and stdout followed by stderr. */
export interface PatchRun {
  exitCode: number | null;
  output: string;
}

/** The argv of one patch run: batch mode, no backups, no reject files, names printed literally. */
export function patchArgv(options: Pick<RunPatchOptions, 'fuzz' | 'dryRun'>): string[] {
  return [
    // POSIX mode (set POSIXLY_CORRECT) changes how patch picks file names and reads hunks
    'env',
    '-u',
    'POSIXLY_CORRECT',
    'patch',
    '--batch',
    '--forward',
    '-u',
    '-p1',
    `-F${options.fuzz}`,
    '--no-backup-if-mismatch',
    '--reject-file=-',
    '--quoting-style=literal',
    ...(options.dryRun ? ['--dry-run'] : []),
  ];
}

/** Runs patch with `diff` on stdin. Never throws for a non-zero exit. */
export async function runPatch(
  client: SandboxClient,
  diff: string,
  options: RunPatchOptions,
): Promise<PatchRun> {
  const result = await client.exec(formatCommand(patchArgv(options)), {
    cwd: options.cwd,
    stdin: diff,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return {
    exitCode: result.exitCode,
    output: `${result.stdout}${result.stderr === '' ? '' : `\n${result.stderr}`}`,
  };
}
