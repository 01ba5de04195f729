/**
 * One patch application as a single shell command, so it can run in the sandbox as one exec or as
 * one step of the prepare script: `git apply -v` first, then GNU `patch --batch --forward
 * --fuzz=0 -p1` (a dry run, then the real one) only when git apply failed. Both programs exit 0
 * when every hunk applied. `patch` output mentioning fuzz is refused even at `--fuzz=0` (B11).
 * The command prints `::sandkit-applied-with <program>` on success.
 * @module
 */
import { formatCommand, pinnedGitCommand } from '@sandkit/core';
import { patchPaths, splitPatch } from './patch-files.js';

/** Which program applied the patch. `'none'` when nothing was left to apply after skipping. */
export type PatchMethod = 'git apply' | 'patch' | 'none';

/** A patch ready to write into the sandbox. */
export interface PreparedPatch {
  /** The text to apply: the patch without binary sections that carry no data; ends with a newline. */
  text: string;
  /** Real UTF-8 paths of the files the applied part touches. */
  files: string[];
  /** Paths of binary sections without data that were left out. */
  skippedBinary: string[];
  /** `true` when nothing is left to apply (only skipped sections). */
  empty: boolean;
}

/** What one patch step did. */
export interface PatchStepResult {
  applied: boolean;
  /** The program that applied it, or `null` when neither could. */
  method: PatchMethod | null;
  /** Hunks `patch` placed at an offset (`Hunk #1 succeeded at 12 (offset 3 lines).`). */
  offsets: string[];
  /** The step's output when `applied` is false, else `''`. */
  failure: string;
}

/** Drops binary sections without data (reported in `skippedBinary`) and normalises the final newline. */
export function preparePatch(patch: string): PreparedPatch {
  const split = splitPatch(patch);
  const skipped = split.files.filter((file) => file.binaryWithoutData);
  const kept = split.files.filter((file) => !file.binaryWithoutData);
  const text = skipped.length === 0 ? patch : split.preamble + kept.map((file) => file.text).join('');
  return {
    text: text.endsWith('\n') ? text : `${text}\n`,
    files: patchPaths(kept),
    skippedBinary: patchPaths(skipped),
    empty: kept.length === 0 && skipped.length > 0,
  };
}

const appliedMarker = '::sandkit-applied-with ';

/** The shell command applying the patch file at `patchPath` in the current directory. */
export function patchStepCommand(patchPath: string): string {
  const git = pinnedGitCommand('apply', ['-v', '--', patchPath]);
  const patch = formatCommand([
    'patch',
    '--batch',
    '--forward',
    '--fuzz=0',
    '--no-backup-if-mismatch',
    '-p1',
    '-i',
    patchPath,
  ]);
  return [
    `if ${git}; then echo '${appliedMarker}git apply'; else`,
    `echo '::sandkit-fallback patch --fuzz=0';`,
    `out=$(${patch} --dry-run 2>&1); code=$?; printf '%s\\n' "$out";`,
    `if [ "$code" -ne 0 ]; then exit 1; fi;`,
    `if printf '%s' "$out" | grep -q 'with fuzz'; then echo 'refused: patch needed fuzz'; exit 1; fi;`,
    `${patch} && echo '${appliedMarker}patch'; fi`,
  ].join(' ');
}

/** Reads a patch step's combined output and exit code. */
export function readPatchStep(output: string, exitCode: number | null): PatchStepResult {
  const marker = output.split('\n').find((line) => line.startsWith(appliedMarker));
  if (exitCode !== 0 || marker === undefined)
    return { applied: false, method: null, offsets: [], failure: output };
  const method = marker.slice(appliedMarker.length).trim() as PatchMethod;
  const offsets =
    method === 'patch' ? output.split('\n').filter((line) => /succeeded at \d+ \(offset/.test(line)) : [];
  return { applied: true, method, offsets, failure: '' };
}
