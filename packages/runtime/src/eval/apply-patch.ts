/**
 * Applies a patch inside the sandbox the way SWE-bench's harness does, without its fuzz:
 * `git apply -v` first, then GNU `patch --batch --forward --fuzz=0 -p1` (dry run, then for real).
 * Exit codes: both programs exit 0 when every hunk applied, non-zero otherwise.
 *
 * Sections for binary files that carry no data (`Binary files a/x and b/x differ`) cannot be
 * applied by either program; they are dropped, reported in {@link PatchApplyResult.skippedBinary},
 * and the rest of the patch is applied. `patch` is never allowed to fuzz (B11): a hunk whose
 * context does not match exactly fails, and output mentioning fuzz is treated as a failure.
 * @module
 */
import { formatCommand, type SandboxClient } from '@sandkit/core';
import type { EvalLog } from './eval-log.js';
import { patchPaths, splitPatch } from './patch-files.js';

/** Which program applied the patch. `'none'` when nothing was left to apply after skipping. */
export type PatchMethod = 'git apply' | 'patch' | 'none';

/** What {@link applyPatch} did. */
export interface PatchApplyResult {
  applied: boolean;
  /** The program that applied it, or `null` when neither could. */
  method: PatchMethod | null;
  /** Real UTF-8 paths of the files the applied part of the patch touches. */
  files: string[];
  /** Paths of binary sections without data that were left out. */
  skippedBinary: string[];
  /** Hunks `patch` placed at an offset (`Hunk #1 succeeded at 12 (offset 3 lines).`). */
  offsets: string[];
  /** The failing program's output when `applied` is false, else `''`. */
  failure: string;
}

/** Where and how to apply one patch. */
export interface ApplyPatchOptions {
  client: SandboxClient;
  log: EvalLog;
  /** The patch text. */
  patch: string;
  /** Working tree to apply it in (sandbox path). */
  repoDir: string;
  /** Sandbox path to write the patch file to (outside the working tree). */
  patchPath: string;
  /** Log label: `model patch` or `test patch`. */
  label: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Applies one patch; a patch that applies nowhere is a result (`applied: false`), not a throw. */
export async function applyPatch(options: ApplyPatchOptions): Promise<PatchApplyResult> {
  const { client, log, repoDir, patchPath, label } = options;
  const split = splitPatch(options.patch);
  const skipped = split.files.filter((file) => file.binaryWithoutData);
  const kept = split.files.filter((file) => !file.binaryWithoutData);
  const skippedBinary = patchPaths(skipped);
  for (const path of skippedBinary) log.note(`${label}: skipped binary file without patch data: ${path}`);
  const result = (applied: boolean, method: PatchMethod | null, failure = '', offsets: string[] = []) => ({
    applied,
    method,
    files: patchPaths(kept),
    skippedBinary,
    offsets,
    failure,
  });
  if (kept.length === 0 && skipped.length > 0) return result(true, 'none');
  const text = skipped.length === 0 ? options.patch : split.preamble + kept.map((file) => file.text).join('');
  await client.writeFile(patchPath, text.endsWith('\n') ? text : `${text}\n`, { signal: options.signal });
  const exec = { cwd: repoDir, timeoutMs: options.timeoutMs, signal: options.signal };

  const git = await log.exec(client, label, formatCommand(['git', 'apply', '-v', '--', patchPath]), exec);
  if (git.exitCode === 0) return result(true, 'git apply');

  const patchArgv = [
    'patch',
    '--batch',
    '--forward',
    '--fuzz=0',
    '--no-backup-if-mismatch',
    '-p1',
    '-i',
    patchPath,
  ];
  const dry = await log.exec(client, label, formatCommand([...patchArgv, '--dry-run']), exec);
  const dryOutput = dry.stdout + dry.stderr;
  if (dry.exitCode !== 0 || /with fuzz/.test(dryOutput)) {
    return result(false, null, `git apply:\n${git.stdout}${git.stderr}\npatch --fuzz=0:\n${dryOutput}`);
  }
  const real = await log.exec(client, label, formatCommand(patchArgv), exec);
  const output = real.stdout + real.stderr;
  if (real.exitCode !== 0) return result(false, null, `patch --fuzz=0:\n${output}`);
  const offsets = output.split('\n').filter((line) => /succeeded at \d+ \(offset/.test(line));
  return result(true, 'patch', '', offsets);
}
