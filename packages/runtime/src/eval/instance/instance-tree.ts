/**
 * How an instance's working tree comes to be in its sandbox, shared by `sandkit eval` (which runs
 * its evaluation script in the tree) and `sandkit run` (which prepares the tree and hands it to the
 * agent): one path, so an agent works in exactly the tree the harness grades.
 *
 * - `clone` / `archive`: a fresh tree of `base_commit` at `<workdir>/repo` (see `checkout-instance.ts`).
 * - `in-place`: the image's `/testbed`, checked to be at `base_commit` and writable; when the image
 *   holds no repository there, the tree is uploaded as in `archive` (and the run remembers that for
 *   the image, so later instances of it skip the probe).
 *
 * The first step of the script is the tree step; `setup_cmd` (when the row has one) follows it
 * in the same script (`preparationSteps` in `eval-script.ts`).
 * @module
 */
import type { SandboxSession } from '@sandkit/core';
import { checkoutStep } from './checkout-instance.js';
import type { EvalLog } from './eval-log.js';
import { inPlaceStep, noTreeMarker } from './eval-script.js';
import { StepError } from './eval-step-error.js';
import type { InstanceContext } from './instance-context.js';
import type { PrepareStep, StepOutcome } from './prepare-script.js';

/** Where SWE-bench's images keep the repository (`DOCKER_WORKDIR`). */
export const officialRepoDir = '/testbed';

/** What choosing and making the tree needs (a part of {@link InstanceContext}). */
export type TreeContext = Pick<
  InstanceContext,
  'instance' | 'store' | 'checkoutMode' | 'signal' | 'treelessImage' | 'archive'
>;

/** One run of a script whose first step is the tree step. */
export interface TreeScriptRun {
  /** The script's steps, by name (see `parsePrepareOutput`). */
  steps: Map<string, StepOutcome>;
}

/**
 * Runs a script in the instance's tree: `runScript(treeStep, repoDir, archived)` builds and runs a
 * script whose first step is `treeStep`; `archived` is `true` when the tree is a one-commit
 * repository made from `git archive` (where `base_commit` is no object: use `HEAD`). In `in-place`
 * mode a script whose tree step finds no repository at `/testbed` runs again with an uploaded tree.
 * @throws SandkitError `not_found` from the store (repository or commit unavailable); whatever `runScript` throws.
 */
export async function inInstanceTree<T extends TreeScriptRun>(
  ctx: TreeContext,
  session: SandboxSession,
  log: EvalLog,
  scratchDir: string,
  runScript: (treeStep: PrepareStep, repoDir: string, archived: boolean) => Promise<T>,
): Promise<{ repoDir: string; archived: boolean; outcome: T }> {
  const uploaded = async (): Promise<{ repoDir: string; archived: boolean; outcome: T }> => {
    const repoDir = `${session.workdir}/repo`;
    const step = await checkout({ ...ctx, checkoutMode: 'archive' }, session, log, repoDir, scratchDir);
    return { repoDir, archived: true, outcome: await runScript(step, repoDir, true) };
  };
  if (ctx.checkoutMode === 'clone' || ctx.checkoutMode === 'archive') {
    const repoDir = `${session.workdir}/repo`;
    const step = await checkout(ctx, session, log, repoDir, scratchDir);
    const archived = ctx.checkoutMode === 'archive';
    return { repoDir, archived, outcome: await runScript(step, repoDir, archived) };
  }
  if (ctx.treelessImage?.known() === true) {
    log.note(
      `the image has no repository at ${officialRepoDir}: uploading the tree (an earlier instance of this run found none; not probed again)`,
    );
    return uploaded();
  }
  const outcome = await runScript(
    inPlaceStep(officialRepoDir, ctx.instance.base_commit, session.workdir),
    officialRepoDir,
    false,
  );
  const probe = outcome.steps.get('in place');
  if (probe?.exitCode === 3 && probe.output.includes(noTreeMarker)) {
    ctx.treelessImage?.learned();
    log.note(`the image has no repository at ${officialRepoDir}: uploading the tree`);
    return uploaded();
  }
  return { repoDir: officialRepoDir, archived: false, outcome };
}

/** The names of the preparation steps, in the order they run. */
export const preparationStepNames = ['in place', 'checkout', 'setup'] as const;

/**
 * The error for a failed preparation step (`failed`: the first step with a non-zero exit), or
 * `null` when `failed` is no preparation step.
 */
export function preparationError(
  failed: string | null,
  steps: Map<string, StepOutcome>,
  baseCommit: string,
): StepError | null {
  const output = steps.get(failed ?? '')?.output ?? '';
  switch (failed) {
    case 'in place':
      return new StepError('repo', lastLine(output));
    case 'checkout':
      return new StepError('repo', `checkout of ${baseCommit} failed: ${lastLine(output)}`);
    case 'setup':
      return new StepError('setup', `setup_cmd failed (exit ${steps.get('setup')?.exitCode}); see eval.log`);
    default:
      return null;
  }
}

async function checkout(
  ctx: TreeContext,
  session: SandboxSession,
  log: EvalLog,
  repoDir: string,
  scratchDir: string,
): Promise<PrepareStep> {
  return checkoutStep({
    client: session.client,
    log,
    store: ctx.store,
    mode: ctx.checkoutMode === 'clone' ? 'clone' : 'archive',
    repo: ctx.instance.repo,
    commit: ctx.instance.base_commit,
    repoDir,
    workdir: session.workdir,
    scratchDir,
    signal: ctx.signal,
    ...(ctx.archive === undefined ? {} : { tar: ctx.archive }),
  });
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
