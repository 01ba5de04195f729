/**
 * Prepares an instance's sandbox for an agent exactly as `sandkit eval` prepares it for grading
 * (`inInstanceTree`: the same tree step, in-place check and `setup_cmd`), in one script, then
 * records the tree of the prepared workspace (tracked and new, non-ignored files, through a
 * throw-away index) as the base the agent's patch is taken against.
 * @module
 */
import {
  formatCommand,
  pinnedGitArgv,
  pinnedGitEnv,
  quoteShellArgument,
  type SandboxSession,
} from '@sandkit/core';
import type { EvalLog } from '../eval/instance/eval-log.js';
import { preparationSteps } from '../eval/instance/eval-script.js';
import { StepError } from '../eval/instance/eval-step-error.js';
import {
  inInstanceTree,
  preparationError,
  preparationStepNames,
  type TreeContext,
} from '../eval/instance/instance-tree.js';
import { buildPrepareScript, parsePrepareOutput } from '../eval/instance/prepare-script.js';

/** The prepared workspace. */
export interface PreparedWorkspace {
  /** Sandbox path of the repository (the tools' root). */
  repoDir: string;
  /** The git tree of the prepared workspace: the agent's patch is the diff against it. */
  baseTree: string;
}

/**
 * Prepares the tree in `session` within `timeoutMs`.
 * @throws StepError `repo` / `setup` when a step failed, `timeout` when the script ran out of time,
 *   `internal` when the base tree could not be recorded; SandboxError when the sandbox failed.
 */
export async function prepareAgentSandbox(
  ctx: TreeContext,
  session: SandboxSession,
  log: EvalLog,
  timeoutMs: number,
): Promise<PreparedWorkspace> {
  const scratchDir = `${session.workdir}/.sandkit-eval`;
  const { repoDir, outcome } = await inInstanceTree(ctx, session, log, scratchDir, async (treeStep, dir) => {
    const script = [
      formatCommand(['mkdir', '-p', scratchDir]),
      buildPrepareScript(preparationSteps(treeStep, ctx.instance.setup_cmd ?? null, dir), quoteShellArgument),
      '',
    ].join('\n');
    const exec = await log.exec(session.client, 'prepare', `sh -c ${quoteShellArgument(script)}`, {
      timeoutMs,
      signal: ctx.signal,
      display: `prepare (${treeStep.name}${ctx.instance.setup_cmd ? ', setup' : ''})`,
    });
    return { exec, steps: parsePrepareOutput(exec.stdout) };
  });
  const { exec, steps } = outcome;
  let failed: string | null = null;
  for (const name of preparationStepNames) {
    const step = steps.get(name);
    if (step === undefined) continue;
    log.step(name, step.exitCode, step.output);
    if (step.exitCode !== 0) failed ??= name;
  }
  if (exec.timedOut) throw new StepError('timeout', 'the preparation of the sandbox timed out');
  const error = preparationError(failed, steps, ctx.instance.base_commit);
  if (error !== null) throw error;
  if (failed !== null || exec.exitCode !== 0)
    throw new StepError('internal', `the preparation script failed (exit ${exec.exitCode ?? exec.signal})`);
  return { repoDir, baseTree: await workspaceTree(session, repoDir, ctx.signal) };
}

/** `git write-tree` of the workspace's tracked and new files, staged into a throw-away index. */
async function workspaceTree(session: SandboxSession, repoDir: string, signal: AbortSignal): Promise<string> {
  const git = (subcommand: string, ...args: string[]): string =>
    formatCommand(pinnedGitArgv(subcommand, args));
  const script = [
    'idx=$(mktemp -u) || exit 2',
    'trap \'rm -f "$idx"\' EXIT',
    'export GIT_INDEX_FILE="$idx"',
    `${git('read-tree', 'HEAD')} || exit 2`,
    `${git('add', '-A', '.')} || exit 2`,
    git('write-tree'),
  ].join('\n');
  const result = await session.client.exec(script, { cwd: repoDir, env: { ...pinnedGitEnv }, signal });
  const tree = result.stdout.trim();
  if (result.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(tree))
    throw new StepError(
      'internal',
      `could not record the prepared tree of ${repoDir} (git exit ${result.exitCode}): ${result.stderr.trim()}`,
    );
  return tree;
}
