/**
 * `sandkit replay <traj.json>`: re-runs a `sandkit run` trajectory's tool calls on a fresh sandbox
 * prepared the same way, without a model (`replayTrajectory`), and reports the first call whose
 * result differs and whether the final patch is the same.
 *
 * Exit codes: 0 every result and the patch are the same, 1 something differs (or the replay
 * failed), 2 usage error.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { type Command, Option } from 'commander';
import type { EvalSandboxKind } from '../eval/eval-sandboxes.js';
import { replayTrajectory } from '../run/replay-trajectory.js';

/** Exit codes of `sandkit replay`. */
export const replayExitCode = { same: 0, differs: 1, usage: 2 } as const;

interface ReplayCliOptions {
  dataset: string;
  repos?: string;
  repoUrl?: string;
  cacheDir?: string;
  sandbox: EvalSandboxKind;
  image?: string;
  json?: boolean;
}

/** Adds the `replay` command to `program`. */
export function registerReplayCommand(program: Command): Command {
  return program
    .command('replay')
    .summary("re-run a trajectory's tool calls without a model and compare")
    .description(
      'Re-run the tool calls of a sandkit run trajectory, in order, on a fresh sandbox prepared as the run prepared it, without calling any model; report the first call whose result differs and whether the final patch is the same.',
    )
    .argument('<trajectory>', 'the <instance_id>.traj.json file')
    .requiredOption('--dataset <file>', 'the dataset the run used')
    .option('--repos <dir>', 'local git mirrors: DIR/owner__name or DIR/owner__name.bundle')
    .option('--repo-url <template>', 'clone URL when no local mirror exists')
    .option('--cache-dir <dir>', 'where mirrors are kept (default ~/.cache/sandkit/mirrors)')
    .addOption(
      new Option('--sandbox <kind>', 'sandbox vendor').choices(['local', 'docker', 'e2b']).default('local'),
    )
    .option('--image <name>', 'Docker image / E2B template for instances without an "image" field')
    .option('--json', 'print the result as JSON')
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : replayExitCode.usage);
    })
    .action(async (trajectory: string, options: ReplayCliOptions) => {
      try {
        const result = await replayTrajectory({
          trajectory,
          dataset: options.dataset,
          ...(options.repos === undefined ? {} : { reposDir: options.repos }),
          ...(options.repoUrl === undefined ? {} : { repoUrl: options.repoUrl }),
          ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
          sandbox: options.sandbox,
          ...(options.image === undefined ? {} : { image: options.image }),
        });
        if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else {
          const d = result.firstDivergence;
          process.stdout.write(
            [
              `${result.instanceId}: ${result.calls} tool call(s) replayed`,
              d === null
                ? 'every result is the same as recorded'
                : `first differing result: step ${d.step}, call ${d.callId} (${d.tool})\n  recorded: ${d.recorded.slice(0, 2000)}\n  replayed: ${d.replayed.slice(0, 2000)}`,
              `final patch: ${result.samePatch ? 'the same' : 'different'}`,
              '',
            ].join('\n'),
          );
        }
        process.exitCode =
          result.firstDivergence === null && result.samePatch ? replayExitCode.same : replayExitCode.differs;
      } catch (error) {
        const usage = SandkitError.isInstance(error) && error.code === SandkitErrorCode.invalidOption;
        process.stderr.write(`sandkit replay: ${(error as Error).message}\n`);
        process.exitCode = usage ? replayExitCode.usage : replayExitCode.differs;
      }
    });
}
