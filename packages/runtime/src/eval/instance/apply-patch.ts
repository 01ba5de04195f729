/**
 * Applies one patch inside the sandbox in one exec (see `patch-step.ts` for the programs and
 * their exit codes). Binary sections without data are dropped and reported, never allowed to sink
 * the rest of the patch; `patch` never fuzzes (B11).
 * @module
 */
import type { SandboxClient } from '@sandkit/core';
import type { EvalLog } from './eval-log.js';
import {
  type PatchMethod,
  type PatchStepResult,
  patchStepCommand,
  preparePatch,
  readPatchStep,
} from './patch-step.js';

export type { PatchMethod } from './patch-step.js';

/** What {@link applyPatch} did. */
export interface PatchApplyResult extends PatchStepResult {
  /** Real UTF-8 paths of the files the applied part of the patch touches. */
  files: string[];
  /** Paths of binary sections without data that were left out. */
  skippedBinary: string[];
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
  /** Log label, e.g. `model patch`. */
  label: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Applies one patch; a patch that applies nowhere is a result (`applied: false`), not a throw. */
export async function applyPatch(options: ApplyPatchOptions): Promise<PatchApplyResult> {
  const { client, log, label } = options;
  const prepared = preparePatch(options.patch);
  for (const path of prepared.skippedBinary)
    log.note(`${label}: skipped binary file without patch data: ${path}`);
  const base = { files: prepared.files, skippedBinary: prepared.skippedBinary };
  if (prepared.empty)
    return { ...base, applied: true, method: 'none' satisfies PatchMethod, offsets: [], failure: '' };
  await client.writeFile(options.patchPath, prepared.text, { signal: options.signal });
  const exec = await log.exec(client, label, `{ ${patchStepCommand(options.patchPath)}\n} 2>&1`, {
    cwd: options.repoDir,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  return { ...base, ...readPatchStep(exec.stdout, exec.exitCode) };
}
