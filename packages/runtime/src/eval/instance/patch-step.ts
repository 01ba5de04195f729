/**
 * One patch application as a single shell command, so it can run in the sandbox as one exec or as
 * one step of the evaluation script. Two policies:
 * - `official` (default): SWE-bench's chain, `GIT_APPLY_CMDS` in `swebench/harness/run_evaluation.py`
 *   (v4.1.0, commit 726c5461e2ef52d83cf1ea2107870a8bb3328d57): `git apply --verbose`, then
 *   `git apply --verbose --reject`, then `patch --batch --fuzz=5 -p1 -i`; the first that exits 0 wins.
 * - `strict`: `git apply -v`, then GNU `patch --batch --forward --fuzz=0 -p1` (a dry run, then the
 *   real one); `patch` output mentioning fuzz is refused even at `--fuzz=0` (B11).
 * Every program exits 0 when every hunk applied. The command prints `::sandkit-applied-with <step>`
 * on success, so the report can say which step applied the patch.
 * @module
 */
import { formatCommand, pinnedGitCommand } from '@sandkit/core';
import { patchPaths, splitPatch } from './patch-files.js';

/**
 * Which step applied the patch: `git apply`, `git apply --reject` and `patch --fuzz=5` (official
 * chain), `patch` (strict: `--fuzz=0`). `'none'` when nothing was left to apply after skipping.
 */
export type PatchMethod = 'git apply' | 'git apply --reject' | 'patch --fuzz=5' | 'patch' | 'none';

/** How patches are applied, see the module doc. */
export type PatchPolicy = 'official' | 'strict';

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
  /** Hunks `patch` placed at an offset or with fuzz (`Hunk #1 succeeded at 12 (offset 3 lines).`). */
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

/** Printed by a patch step's command after the step that applied the patch: `::sandkit-applied-with <step>`. */
export const appliedMarker = '::sandkit-applied-with ';

/** Printed by a patch step's command before it tries the next step of the chain: `::sandkit-fallback <step>`. */
export const fallbackMarker = '::sandkit-fallback ';

/** The shell command applying the patch file at `patchPath` in the current directory under `policy`. */
export function patchStepCommand(patchPath: string, policy: PatchPolicy = 'strict'): string {
  if (policy === 'official') {
    const plain = pinnedGitCommand('apply', ['--verbose', '--', patchPath]);
    const reject = pinnedGitCommand('apply', ['--verbose', '--reject', '--', patchPath]);
    const fuzz = formatCommand(['patch', '--batch', '--fuzz=5', '-p1', '-i', patchPath]);
    return [
      `if ${plain}; then echo '${appliedMarker}git apply';`,
      `elif echo '${fallbackMarker}git apply --reject'; ${reject}; then echo '${appliedMarker}git apply --reject';`,
      `elif echo '${fallbackMarker}patch --fuzz=5'; ${fuzz}; then echo '${appliedMarker}patch --fuzz=5';`,
      'else exit 1; fi',
    ].join(' ');
  }
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
    `echo '${fallbackMarker}patch --fuzz=0';`,
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
    method === 'patch' || method === 'patch --fuzz=5'
      ? output.split('\n').filter((line) => /succeeded at \d+ (\(offset|with fuzz)/.test(line))
      : [];
  return { applied: true, method, offsets, failure: '' };
}
