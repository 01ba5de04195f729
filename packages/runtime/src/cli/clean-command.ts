/**
 * `sandkit clean`: removes the sandboxes a killed sandkit process left behind (kill -9, OOM, a
 * crashed CI runner), for a user who does not rerun with `--resume`: local sandbox directories whose
 * owner process is gone (their tagged processes SIGKILLed first), and Docker containers labelled by
 * a gone owner. Sandboxes of live sandkit processes are kept. Exit 0, or 1 when Docker was asked
 * for and cannot be reached.
 * @module
 */
import { tmpdir } from 'node:os';
import { removeLeftoverLocalSandboxes } from '@sandkit/sandbox-adapters/local';
import { type Command, Option } from 'commander';

interface CleanOptions {
  sandbox: 'local' | 'docker' | 'all';
  root: string;
  dryRun?: boolean;
}

/**
 * Adds the `clean` command to `program` (commander 14).
 * @returns the `clean` command.
 */
export function registerCleanCommand(program: Command): Command {
  return program
    .command('clean')
    .description(
      'Remove sandboxes left by a killed sandkit run (owner process gone): local sandbox dirs and their processes, Docker containers',
    )
    .addOption(
      new Option('--sandbox <kind>', 'which sandboxes: local, docker, or all')
        .choices(['local', 'docker', 'all'])
        .default('all'),
    )
    .option('--root <dir>', 'where the local sandboxes are (the local adapter root)', tmpdir())
    .option('--dry-run', 'list what would be removed; remove nothing')
    .addHelpText(
      'after',
      `
A sandbox is removed only when the process that made it is provably gone (its pid is missing or
now belongs to another process, or the machine rebooted). \`sandkit eval\` and every local or Docker
adapter also do this at their first sandbox, so a rerun (with or without --resume) cleans up too.

Examples:
  sandkit clean --dry-run
  sandkit clean --sandbox local --root "$TMPDIR"
`,
    )
    .action(async (options: CleanOptions) => {
      process.exitCode = await clean(options);
    });
}

async function clean(options: CleanOptions): Promise<number> {
  const verb = options.dryRun ? 'would remove' : 'removed';
  let code = 0;
  if (options.sandbox !== 'docker') {
    const local = await removeLeftoverLocalSandboxes({ root: options.root, dryRun: options.dryRun ?? false });
    for (const dir of local.removed) process.stdout.write(`${verb} local sandbox ${dir}\n`);
    process.stdout.write(
      `local: ${verb} ${local.removed.length}, kept ${local.kept.length} (owner alive or unknown)\n`,
    );
  }
  if (options.sandbox !== 'local') {
    try {
      const { removeLeftoverSandboxes } = await import('@sandkit/sandbox-adapters/docker');
      const docker = await removeLeftoverSandboxes({ dryRun: options.dryRun ?? false });
      for (const id of docker.removed) process.stdout.write(`${verb} docker container ${id}\n`);
      process.stdout.write(`docker: ${verb} ${docker.removed.length}, kept ${docker.kept.length}\n`);
    } catch (error) {
      process.stderr.write(`sandkit clean: docker: ${(error as Error).message}\n`);
      if (options.sandbox === 'docker') code = 1;
    }
  }
  return code;
}
